// The quote headers, header blocks, separators and mobile signatures of the 33 languages
// mail clients ship most, one table each. Gmail's forms are given with the web client's
// date format; Apple Mail's, Thunderbird's and Outlook's where they differ. Invisible
// direction marks (Hebrew, Arabic, Persian Gmail) are taken out before matching.
extension QuoteLanguage {
    static let tables: [QuoteLanguage] = [
        english, french, german, spanish, russian, polish, arabic, japanese,
        italian, portuguese, catalan, dutch, swedish, danish, norwegian, finnish, czech, slovak, hungarian, romanian, turkish,
        greek, ukrainian, bulgarian, croatian, hebrew, persian, hindi, thai, vietnamese, indonesian, korean, chinese,
        gmailNumeric, yandex, zoho, quotingClients,
    ]

    static let english = QuoteLanguage(
        code: "en",
        wrote: [
            #"^on\s.{4,}\swrote\s?:$"#,                 // Gmail, Apple Mail, Thunderbird, Yahoo, K-9, Proton, Fastmail
            #"^at\s.{4,}\s(you\s)?wrote\s?:$"#,         // Eudora and older Outlook: "At 4/7/2025 09:12 AM, you wrote:"
            #"^[^:]{1,200}<[^<>\s]+@[^<>\s]+>\s?wrote\s?:$"#, // "Name <addr> wrote:" without On (mailing lists, Horde)
            #"^[^:]{1,200}\(\s?[^()\s]+@[^()\s]+\s?\)\s?wrote\s?:$"#, // "Name (addr) wrote:"
            #"^quoting\s.{1,300}:$"#,                   // Horde IMP: "Quoting Name <addr>:"
            #"^.{4,}\swrote\s?:$"#,                    // Thunderbird and Apple Mail in languages they leave in English
            #"^.{1,200}\swrote on\s.{4,160}:$"#,        // Lotus Notes: "Name <addr> wrote on 12/02/2026 01:37:12 AM:"
        ],
        verbs: ["wrote", "quoting"],
        from: ["from"], dated: ["sent", "date"], fields: ["to", "subject", "cc"],
        separators: ["original message", "forwarded message", "original", "message forwarded"],
        forwarded: ["begin forwarded message", "forwarded message"],
        sentFromStarts: ["sent from my", "sent from", "sent via", "sent with", "sent using", "sent on the go"],
        getOutlook: ["Get Outlook for {os}"])

    static let french = QuoteLanguage(
        code: "fr",
        wrote: [
            #"^le\s.{4,}\sa\s[ée]crit\s?:$"#,           // Gmail, Apple Mail, Thunderbird
            #"^.{4,}\sa\s[ée]crit\s?:$"#,               // "Name <addr> a écrit :"
        ],
        verbs: ["crit"],
        from: ["de"], dated: ["envoyé", "date"], fields: ["à", "a", "objet", "cc"],
        separators: ["message d'origine", "message d’origine", "message transféré", "courriel original", "message original", "mail original"],
        forwarded: ["début du message réexpédié", "début du message transféré"],
        sentFromStarts: ["envoyé de mon", "envoyé depuis", "envoyé à partir de", "envoyé avec"],
        sentWithStarts: ["envoyé de"],
        getOutlook: ["Obtenir Outlook pour {os}", "Télécharger Outlook pour {os}"])

    static let german = QuoteLanguage(
        code: "de",
        wrote: [
            #"^am\s.{4,}\sschrieb.{0,120}:$"#,          // Gmail: "Am Mo., 7. Apr. 2025 um 09:12 Uhr schrieb Name <addr>:"
            #"^.{1,200}\sschrieb am\s.{4,160}:$"#,      // older Gmail: "Name <addr> schrieb am Mo., 7. Apr. 2025 …:"
            #"^.{1,300}\sschrieb\s?:$"#,                // Thunderbird: "Name schrieb:"
            #"^am\s.{4,200}\shat\s.{1,300}\sfolgendes geschrieben\s?:$"#, // Yahoo: "Am Montag, 2. März 2026, 09:31:00 MEZ hat Name <addr> Folgendes geschrieben:"
        ],
        verbs: ["schrieb", "geschrieben"],
        from: ["von"], dated: ["gesendet", "datum"], fields: ["an", "betreff", "cc"],
        separators: ["ursprüngliche nachricht", "ursprüngliche mail", "weitergeleitete nachricht", "original-nachricht", "originalnachricht"],
        forwarded: ["anfang der weitergeleiteten nachricht", "weitergeleitete nachricht"],
        sentFromStarts: ["gesendet von meinem", "gesendet von", "gesendet mit"],
        sentFromEnds: ["gesendet"],
        sentWithStarts: ["gesendet vom", "gesendet über"],
        getOutlook: ["Outlook für {os} beziehen", "Outlook für {os} herunterladen"])

    static let spanish = QuoteLanguage(
        code: "es",
        wrote: [
            #"^el\s.{4,}\sescribi[óo]\s?:$"#,           // Gmail, Apple Mail
            #"^.{4,}\sescribi[óo]\s?:$"#,               // Thunderbird: "Name escribió:"
        ],
        verbs: ["escribi"],
        from: ["de"], dated: ["enviado el", "enviado", "fecha"], fields: ["para", "asunto", "cc"],
        separators: ["mensaje original", "mensaje reenviado"],
        forwarded: ["inicio del mensaje reenviado", "mensaje reenviado"],
        sentFromStarts: ["enviado desde mi", "enviado desde", "enviado con"],
        getOutlook: ["Obtener Outlook para {os}", "Descargar Outlook para {os}"])

    static let russian = QuoteLanguage(
        code: "ru",
        wrote: [
            #"^.{4,}\s(пишет|написал|написала|написал\(а\)|написали)\s?:$"#, // Apple Mail, Thunderbird, mail.ru
            #"^.{4,}пользователь\s.{1,300}\sнаписал\s?:$"#,                 // Gmail (older): "… пользователь "Name" <addr> написал:"
            #"^.{1,200}\s(писал|писала|писал\(а\))\s[\d./-]{6,10}[\s,]{1,2}\d{1,2}:\d{2}(:\d{2})?\s?:$"#, // Roundcube: "Name писал 2025-04-07 09:12:"
        ],
        verbs: ["пишет", "написал", "написали", "писал"],
        from: ["от"], dated: ["отправлено", "дата"], fields: ["кому", "тема", "копия"],
        separators: ["исходное сообщение", "пересылаемое сообщение", "пересланное сообщение", "оригинальное сообщение", "перенаправленное сообщение"],
        forwarded: ["начало переадресованного сообщения", "пересылаемое сообщение"],
        sentFromStarts: ["отправлено с", "отправлено со", "отправлено из", "отправлено через"],
        getOutlook: ["Получить Outlook для {os}", "Скачайте Outlook для {os}", "Скачать Outlook для {os}"])

    static let polish = QuoteLanguage(
        code: "pl",
        wrote: [
            #"^(w dniu|dnia)\s.{4,}\s(napisał|napisała|napisał\(a\)|pisze)\s?:$"#, // Thunderbird, Apple Mail
            #"^.{4,}\s(napisał|napisała|napisał\(a\)|pisze)\s?:$"#,                // Gmail: "pon., 7 kwi 2025 o 09:12 Name <addr> napisał(a):"
            #"^wiadomość napisana przez\s.{4,}\s?:$"#,                          // Apple Mail: "Wiadomość napisana przez Name <addr> w dniu 7.04.2025, o godz. 09:12:"
        ],
        verbs: ["napisa", "pisze"],
        from: ["od"], dated: ["wysłano", "wysłane", "data"], fields: ["do", "temat", "dw"],
        separators: ["wiadomość oryginalna", "oryginalna wiadomość", "przekazana wiadomość", "wiadomość przekazana dalej"],
        forwarded: ["początek przekazywanej wiadomości", "przekazana wiadomość"],
        sentFromStarts: ["wysłane z", "wysłano z", "wysłane ze"],
        sentWithStarts: ["wysłane za pomocą", "wysłano za pomocą", "wysłane przez"],
        getOutlook: ["Pobierz aplikację Outlook dla systemu {os}", "Pobierz program Outlook dla systemu {os}", "Pobierz Outlook dla systemu {os}"])

    static let arabic = QuoteLanguage(
        code: "ar",
        wrote: [
            #"^.{4,}\sكتب\s.{1,300}[:：]$"#,          // Gmail: "في الاثنين، 7 أبريل 2025 في 9:12 ص، كتب Name <addr>:"
            #"^.{4,}\s(كتب|كتبت)\s?[:：]$"#,           // Thunderbird: "Name كتب:"
        ],
        verbs: ["كتب"],
        from: ["من"], dated: ["تم الإرسال", "أرسلت", "التاريخ", "تاريخ الإرسال"], fields: ["إلى", "الموضوع", "نسخة"],
        separators: ["الرسالة الأصلية", "رسالة مُعاد توجيهها", "الرسالة المعاد توجيهها", "رسالة معاد توجيهها"],
        forwarded: ["بداية الرسالة المُعاد توجيهها", "بداية الرسالة المعاد توجيهها"],
        sentFromStarts: ["أُرسلت من", "أرسلت من", "تم الإرسال من", "مرسل من"],
        getOutlook: ["الحصول على Outlook لـ {os}", "احصل على Outlook لـ {os}", "الحصول على Outlook لنظام {os}", "احصل على Outlook لنظام {os}"])

    static let japanese = QuoteLanguage(
        code: "ja",
        wrote: [
            #"^.{4,}(のメッセージ|のメール|書きました|が書きました|さんは書きました)\s?[:：]$"#, // Apple Mail ("2025/04/07 9:12、Name <addr>のメール:"), Thunderbird
        ],
        verbs: ["のメッセージ", "のメール", "書きました"],
        from: ["差出人", "送信者"], dated: ["送信日時", "日付", "送信日"], fields: ["宛先", "件名", "cc"],
        separators: ["元のメッセージ", "転送メッセージ", "転送されたメッセージ", "original message"],
        forwarded: ["転送されたメッセージ", "転送メッセージ"],
        sentFromEnds: ["から送信", "より送信"], sentWithEnds: ["で送信"],
        getOutlook: ["{os} 版 Outlook を入手", "{os} 版の Outlook を入手", "Outlook for {os} を入手"])

    static let italian = QuoteLanguage(
        code: "it",
        wrote: [
            #"^(il|el)\s.{4,}\sha scritto\s?:$"#,       // Gmail: "Il giorno lun 7 apr 2025 alle ore 09:12 Name <addr> ha scritto:"
            #"^.{4,}\sha scritto\s?:$"#,                // Thunderbird
        ],
        verbs: ["scritto"],
        from: ["da"], dated: ["inviato", "data"], fields: ["a", "oggetto", "cc"],
        separators: ["messaggio originale", "messaggio inoltrato"],
        forwarded: ["inizio messaggio inoltrato", "messaggio inoltrato"],
        sentFromStarts: ["inviato da", "inviato dal mio", "inviato con"],
        getOutlook: ["Scarica Outlook per {os}", "Ottieni Outlook per {os}"])

    static let catalan = QuoteLanguage(
        code: "ca",
        wrote: [
            #"^el\s.{4,}\sva escriure\s?:$"#,         // Gmail: "El dia dv., 21 de nov. 2026 a les 10:00, Name (<addr>) va escriure:", Apple Mail
            #"^.{4,}\s(va escriure|ha escrit)\s?:$"#,  // Thunderbird: "Name ha escrit:"
        ],
        verbs: ["escriure", "escrit"],
        from: ["de"], dated: ["enviat", "data"], fields: ["per a", "assumpte", "a", "cc"],
        separators: ["missatge original", "missatge reenviat"],
        forwarded: ["inici del missatge reenviat", "missatge reenviat"],
        sentFromStarts: ["enviat des del meu", "enviat des de", "enviat amb"],
        getOutlook: ["Obteniu l'Outlook per a {os}", "Obtén l'Outlook per a {os}"])

    static let portuguese = QuoteLanguage(
        code: "pt",
        wrote: [
            #"^(em|no dia|a)\s.{4,}\sescreveu\s?:$"#,  // Gmail (pt-BR, pt-PT), Apple Mail
            #"^.{4,}\sescreveu\s?:$"#,                  // Thunderbird
        ],
        verbs: ["escreveu"],
        from: ["de"], dated: ["enviado", "enviada em", "enviado em", "data"], fields: ["para", "assunto", "cc"],
        separators: ["mensagem original", "mensagem encaminhada", "mensagem reencaminhada"],
        forwarded: ["início da mensagem reencaminhada", "início da mensagem encaminhada", "mensagem encaminhada"],
        sentFromStarts: ["enviado do meu", "enviado do", "enviado de meu", "enviado de", "enviado a partir do"],
        sentWithStarts: ["enviado com", "enviado pelo"],
        getOutlook: ["Obter o Outlook para {os}", "Obtenha o Outlook para {os}", "Baixe o Outlook para {os}", "Transfira o Outlook para {os}"])

    static let dutch = QuoteLanguage(
        code: "nl",
        wrote: [
            #"^op\s.{4,}\sschreef.{0,120}:$"#,          // Gmail: "Op ma 7 apr 2025 om 09:12 schreef Name <addr>:"; Apple Mail
            #"^.{4,}\sschreef\s?:$"#,                   // Thunderbird
        ],
        verbs: ["schreef"],
        from: ["van"], dated: ["verzonden", "datum"], fields: ["aan", "onderwerp", "cc"],
        separators: ["oorspronkelijk bericht", "origineel bericht", "doorgestuurd bericht"],
        forwarded: ["begin doorgestuurd bericht", "doorgestuurd bericht"],
        sentFromStarts: ["verzonden vanaf mijn", "verzonden vanaf", "verzonden met", "verstuurd vanaf mijn", "verstuurd vanaf", "verstuurd met"],
        sentWithStarts: ["verzonden vanuit", "verstuurd vanuit", "verzonden via", "verstuurd via"],
        getOutlook: ["Outlook voor {os} downloaden", "Download Outlook voor {os}", "Outlook voor {os} ophalen"])

    static let swedish = QuoteLanguage(
        code: "sv",
        wrote: [
            #"^(den|på)\s.{4,}\sskrev.{0,120}:$"#,      // Gmail: "Den mån 7 apr. 2025 kl 09:12 skrev Name <addr>:"
            #"^.{4,}\sskrev\s?:$"#,                     // Apple Mail, Thunderbird
        ],
        verbs: ["skrev"],
        from: ["från"], dated: ["skickat", "datum", "skickades"], fields: ["till", "ämne", "kopia"],
        separators: ["ursprungligt meddelande", "originalmeddelande", "vidarebefordrat meddelande"],
        forwarded: ["vidarebefordrat mejl", "vidarebefordrat meddelande", "början på vidarebefordrat meddelande"],
        sentFromStarts: ["skickat från min", "skickat från", "skickades från"],
        sentWithStarts: ["skickat med", "skickat via"],
        getOutlook: ["Hämta Outlook för {os}", "Skaffa Outlook för {os}"])

    static let danish = QuoteLanguage(
        code: "da",
        wrote: [
            #"^den\s.{4,}\sskrev.{0,120}:$"#,           // Gmail: "Den man. 7. apr. 2025 kl. 09.12 skrev Name <addr>:"
            #"^.{4,}\sskrev\s?:$"#,
        ],
        verbs: ["skrev"],
        from: ["fra"], dated: ["sendt", "dato"], fields: ["til", "emne", "cc"],
        separators: ["oprindelig meddelelse", "original meddelelse", "videresendt meddelelse", "videresendt besked"],
        forwarded: ["videresendt besked", "start på videresendt besked"],
        sentFromStarts: ["sendt fra min", "sendt fra"],
        sentWithStarts: ["sendt med", "sendt via"],
        getOutlook: ["Hent Outlook til {os}", "Få Outlook til {os}"])

    static let norwegian = QuoteLanguage(
        code: "nb",
        wrote: [
            #"^den\s.{4,}\sskrev.{0,120}:$"#,           // Apple Mail, Thunderbird: "Den 7. apr. 2025 kl. 09:12 skrev Name <addr>:"
            #"^.{4,}\skl\.?\s.{1,200}\sskrev.{0,120}:$"#, // Gmail: "man. 7. apr. 2025 kl. 09:12 skrev Name <addr>:"
        ],
        verbs: ["skrev"],
        from: ["fra"], dated: ["sendt", "dato"], fields: ["til", "emne", "kopi"],
        separators: ["opprinnelig melding", "originalmelding", "videresendt melding"],
        forwarded: ["videresendt melding", "videresendt e-post"],
        sentFromStarts: ["sendt fra min", "sendt fra"],
        sentWithStarts: ["sendt med", "sendt via"],
        getOutlook: ["Hent Outlook for {os}", "Få Outlook for {os}", "Last ned Outlook for {os}"])

    static let finnish = QuoteLanguage(
        code: "fi",
        wrote: [
            #"^.{4,}\skirjoitti\s?:$"#,                 // Gmail: "ma 7. huhtik. 2025 klo 9.12 Name (<addr>) kirjoitti:"
            #"^.{1,300}\skirjoitti\s.{4,80}:$"#,        // Apple Mail, Thunderbird: "Name <addr> kirjoitti 7.4.2025 kello 9.12:"
        ],
        verbs: ["kirjoitti"],
        from: ["lähettäjä"], dated: ["lähetetty", "päivämäärä"], fields: ["vastaanottaja", "aihe", "kopio"],
        separators: ["alkuperäinen viesti", "välitetty viesti"],
        forwarded: ["välitetty viesti", "alkuperäinen viesti"],
        sentFromStarts: ["lähetetty iphonesta", "lähetetty laitteesta", "lähetetty"],
        getOutlook: ["Hanki Outlook for {os}", "Lataa Outlook for {os}", "Hanki Outlook {os}-laitteelle"])

    static let czech = QuoteLanguage(
        code: "cs",
        wrote: [
            #"^.{4,}\s(napsal|napsala|napsal\(a\))\s?:$"#, // Gmail: "po 7. 4. 2025 v 9:12 odesílatel Name <addr> napsal:"
        ],
        verbs: ["napsal"],
        from: ["od"], dated: ["odesláno", "datum"], fields: ["komu", "předmět", "kopie"],
        separators: ["původní zpráva", "přeposlaná zpráva", "původní e-mail"],
        forwarded: ["začátek přeposlané zprávy", "přeposlaná zpráva"],
        sentFromStarts: ["odesláno z", "odesláno ze", "odesláno pomocí"],
        getOutlook: ["Získat Outlook pro {os}", "Stáhnout Outlook pro {os}", "Získejte Outlook pro {os}"])

    static let slovak = QuoteLanguage(
        code: "sk",
        wrote: [
            #"^.{4,}\s(napísal|napísala|napísal\(a\))\s?:$"#, // Gmail: "po 7. 4. 2025 o 9:12 Name <addr> napísal(a):"
        ],
        verbs: ["napísal"],
        from: ["od"], dated: ["odoslané", "dátum"], fields: ["komu", "predmet", "kópia"],
        separators: ["pôvodná správa", "preposlaná správa"],
        forwarded: ["začiatok preposlanej správy", "preposlaná správa"],
        sentFromStarts: ["odoslané z", "odoslané zo", "odoslané pomocou"],
        getOutlook: ["Získať Outlook pre {os}", "Stiahnuť Outlook pre {os}", "Získajte Outlook pre {os}"])

    static let hungarian = QuoteLanguage(
        code: "hu",
        wrote: [
            #"^.{1,300}\sezt írta\s?\(.{4,160}\)\s?:$"#, // Gmail: "Name <addr> ezt írta (időpont: 2025. ápr. 7., H, 9:12):"
            #"^.{4,}\s(írta|ezt írta)\s?:$"#,           // Apple Mail, Thunderbird
        ],
        verbs: ["írta"],
        from: ["feladó"], dated: ["elküldve", "küldve", "dátum"], fields: ["címzett", "tárgy", "másolat"],
        separators: ["eredeti üzenet", "továbbított üzenet"],
        forwarded: ["továbbított üzenet", "továbbított levél kezdete"],
        sentFromEnds: ["küldve", "-ról küldve", "-ről küldve"],
        sentWithStarts: ["elküldve", "küldve"],
        getOutlook: ["Outlook beszerzése {os} rendszerre", "Az Outlook beszerzése {os} rendszerre", "Outlook letöltése {os} rendszerre"])

    static let romanian = QuoteLanguage(
        code: "ro",
        wrote: [
            #"^.{4,}\sa scris\s?:$"#,                   // Gmail: "În lun., 7 apr. 2025 la 09:12, Name <addr> a scris:"
        ],
        verbs: ["a scris"],
        from: ["de la", "de"], dated: ["trimis", "data"], fields: ["către", "catre", "subiect", "cc"],
        separators: ["mesaj original", "mesajul original", "mesaj redirecționat", "mesaj redirectionat"],
        forwarded: ["începutul mesajului redirecționat", "mesaj redirecționat"],
        sentFromStarts: ["trimis de pe", "trimis din", "trimis cu"],
        getOutlook: ["Obțineți Outlook pentru {os}", "Obţineţi Outlook pentru {os}", "Descărcați Outlook pentru {os}", "Descărcaţi Outlook pentru {os}"])

    static let turkish = QuoteLanguage(
        code: "tr",
        wrote: [
            #"^.{4,}\starihinde şunu yazdı\s?:$"#,      // Gmail: "Name <addr>, 7 Nis 2025 Pzt, 09:12 tarihinde şunu yazdı:"
            #"^.{4,}\s(yazdı|şunu yazdı)\s?:$"#,        // Apple Mail, Thunderbird
        ],
        verbs: ["yazdı"],
        from: ["kimden"], dated: ["gönderildi", "gönderilme", "tarih"], fields: ["kime", "konu", "bilgi"],
        separators: ["orijinal mesaj", "özgün ileti", "iletilen ileti", "iletilmiş mesaj"],
        forwarded: ["iletilen ileti", "iletilmiş mesaj"],
        sentFromEnds: ["gönderildi"],
        getOutlook: ["{os} için Outlook'u edinin", "{os} için Outlook’u edinin", "{os} için Outlook'u indirin", "{os} için Outlook’u indirin"])

    static let greek = QuoteLanguage(
        code: "el",
        wrote: [
            #"^.{4,}\s(έγραψε|έγραψες)\s?:$"#,          // Gmail: "Στις Δευ 7 Απρ 2025 στις 9:12 π.μ., ο/η Name <addr> έγραψε:"
        ],
        verbs: ["έγραψε"],
        from: ["από"], dated: ["στάλθηκε", "ημερομηνία"], fields: ["προς", "θέμα", "κοιν"],
        separators: ["αρχικό μήνυμα", "προωθημένο μήνυμα"],
        forwarded: ["αρχή προωθημένου μηνύματος", "προωθημένο μήνυμα"],
        sentFromStarts: ["στάλθηκε από", "εστάλη από", "αποστολή από"],
        getOutlook: ["Λήψη του Outlook για {os}", "Αποκτήστε το Outlook για {os}"])

    static let ukrainian = QuoteLanguage(
        code: "uk",
        wrote: [
            #"^.{4,}\s(пише|написав|написала|написав\(ла\))\s?:$"#, // Gmail: "пн, 7 квіт. 2025 р. о 09:12 Name <addr> пише:"
        ],
        verbs: ["пише", "написав", "написала"],
        from: ["від"], dated: ["надіслано", "відправлено", "дата"], fields: ["кому", "тема", "копія"],
        separators: ["оригінальне повідомлення", "вихідне повідомлення", "переслане повідомлення", "пересилане повідомлення"],
        forwarded: ["початок пересланого повідомлення", "переслане повідомлення"],
        sentFromStarts: ["надіслано з", "надіслано зі", "відправлено з"],
        getOutlook: ["Отримати Outlook для {os}", "Завантажити Outlook для {os}", "Отримайте Outlook для {os}"])

    static let bulgarian = QuoteLanguage(
        code: "bg",
        wrote: [
            #"^.{4,}\s(написа|писа)\s?:$"#,             // Gmail: "пн, 7.04.2025 г. в 9:12 Name <addr> написа:"
        ],
        verbs: ["написа", "писа"],
        from: ["от"], dated: ["изпратено", "дата"], fields: ["до", "относно", "копие"],
        separators: ["оригинално съобщение", "препратено съобщение"],
        forwarded: ["начало на препратеното съобщение", "препратено съобщение"],
        sentFromStarts: ["изпратено от"], sentWithStarts: ["изпратено с", "изпратено чрез"],
        getOutlook: ["Изтеглете Outlook за {os}", "Вземете Outlook за {os}"])

    static let croatian = QuoteLanguage(
        code: "hr",
        wrote: [
            #"^.{4,}\s(napisao je|napisala je|je napisao|je napisala|napisao/la je|je napisao/la)\s?:$"#, // Gmail: "pon, 7. tra 2025. u 09:12 Name <addr> napisao je:"
        ],
        verbs: ["napisa"],
        from: ["šalje", "od"], dated: ["poslano", "datum"], fields: ["prima", "za", "predmet", "kopija"],
        separators: ["izvorna poruka", "izvorni e-mail", "proslijeđena poruka"],
        forwarded: ["početak proslijeđene poruke", "proslijeđena poruka"],
        sentFromStarts: ["poslano s", "poslano sa", "poslano iz", "poslano putem"],
        getOutlook: ["Preuzmite Outlook za {os}", "Nabavite Outlook za {os}"])

    static let hebrew = QuoteLanguage(
        code: "he",
        wrote: [
            #"^בתאריך\s.{4,}\sמאת\s.{1,300}[:：]$"#,   // Gmail: "בתאריך יום ב׳, 7 באפר׳ 2025 ב-9:12 מאת Name <addr>:"
            #"^.{4,}\s(כתב|כתבה|כתב/ה)\s?[:：]$"#,     // Apple Mail, Thunderbird
        ],
        verbs: ["מאת", "כתב"],
        from: ["מאת"], dated: ["נשלח", "תאריך"], fields: ["אל", "נושא", "עותק"],
        separators: ["הודעה מקורית", "הודעה שהועברה", "ההודעה המקורית"],
        forwarded: ["תחילת הודעה שהועברה", "הודעה שהועברה"],
        sentFromStarts: ["נשלח מ", "נשלח מה", "נשלח באמצעות"],
        getOutlook: ["קבל את Outlook עבור {os}", "השג את Outlook עבור {os}", "הורד את Outlook עבור {os}"])

    static let persian = QuoteLanguage(
        code: "fa",
        wrote: [
            #"^.{4,}\sنوشت\s?[:：]$"#,                 // Gmail: "در تاریخ دوشنبه ۷ آوریل ۲۰۲۵ ساعت ۹:۱۲ Name <addr> نوشت:"
        ],
        verbs: ["نوشت"],
        from: ["از"], dated: ["ارسال شده", "تاریخ", "فرستاده شده"], fields: ["به", "موضوع", "رونوشت"],
        separators: ["پیام اصلی", "پیام ارسال شده", "پیام بازارسال شده", "پیام هدایت شده"],
        forwarded: ["آغاز پیام بازارسال شده", "پیام بازارسال شده"],
        sentFromStarts: ["ارسال شده از", "فرستاده شده از"],
        getOutlook: ["دریافت Outlook برای {os}", "Outlook را برای {os} دریافت کنید"])

    static let hindi = QuoteLanguage(
        code: "hi",
        wrote: [
            #"^.{4,}\s(ने लिखा|लिखा)\s?[:：]$"#,        // Gmail: "सोम, 7 अप्रैल 2025 को 9:12 am बजे Name <addr> ने लिखा:"
        ],
        verbs: ["लिखा"],
        from: ["प्रेषक", "से"], dated: ["भेजा गया", "दिनांक", "तारीख"], fields: ["प्रति", "विषय", "को"],
        separators: ["मूल संदेश", "अग्रेषित संदेश", "आगे भेजा गया संदेश"],
        forwarded: ["अग्रेषित संदेश", "आगे भेजा गया संदेश"],
        sentFromEnds: ["से भेजा गया", "से भेजा"],
        getOutlook: ["{os} के लिए Outlook प्राप्त करें", "{os} के लिए Outlook डाउनलोड करें"])

    static let thai = QuoteLanguage(
        code: "th",
        wrote: [
            #"^.{4,}\s?เขียนว่า\s?[:：]$"#,             // Gmail: "เมื่อ จ. 7 เม.ย. 2025 เวลา 09:12 Name <addr> เขียนว่า:"
            #"^.{4,}\s?เขียน\s?[:：]$"#,
        ],
        verbs: ["เขียน"],
        from: ["จาก"], dated: ["ส่ง", "ส่งเมื่อ", "วันที่"], fields: ["ถึง", "เรื่อง", "สำเนาถึง"],
        separators: ["ข้อความต้นฉบับ", "ข้อความที่ส่งต่อ", "ข้อความเดิม"],
        forwarded: ["เริ่มข้อความที่ส่งต่อ", "ข้อความที่ส่งต่อ"],
        sentFromStarts: ["ส่งจาก", "ส่งจาก iphone", "ส่งจากโทรศัพท์"],
        getOutlook: ["รับ Outlook สำหรับ {os}", "ดาวน์โหลด Outlook สำหรับ {os}"])

    static let vietnamese = QuoteLanguage(
        code: "vi",
        wrote: [
            #"^.{4,}\s(đã viết|viết)\s?:$"#,            // Gmail: "Vào Th 2, 7 thg 4, 2025 vào lúc 09:12 Name <addr> đã viết:"
        ],
        verbs: ["viết"],
        from: ["từ", "người gửi"], dated: ["đã gửi", "ngày", "gửi"], fields: ["đến", "chủ đề", "cc", "tới"],
        separators: ["thư gốc", "tin nhắn gốc", "thư đã chuyển tiếp", "thư chuyển tiếp"],
        forwarded: ["bắt đầu thư chuyển tiếp", "thư đã chuyển tiếp"],
        sentFromStarts: ["gửi từ", "được gửi từ", "đã gửi từ"],
        getOutlook: ["Tải Outlook cho {os}", "Nhận Outlook cho {os}", "Tải xuống Outlook cho {os}"])

    static let indonesian = QuoteLanguage(
        code: "id",
        wrote: [
            #"^.{4,}\s(menulis|telah menulis)\s?:$"#,   // Gmail: "Pada tanggal Sen, 7 Apr 2025 pukul 09.12 Name <addr> menulis:"
        ],
        verbs: ["menulis"],
        from: ["dari"], dated: ["dikirim", "tanggal", "terkirim"], fields: ["kepada", "perihal", "subjek", "cc"],
        separators: ["pesan asli", "pesan terusan", "pesan yang diteruskan", "pesan diteruskan"],
        forwarded: ["awal pesan yang diteruskan", "pesan yang diteruskan"],
        sentFromStarts: ["dikirim dari", "terkirim dari", "dikirim melalui"],
        getOutlook: ["Dapatkan Outlook untuk {os}", "Unduh Outlook untuk {os}"])

    static let korean = QuoteLanguage(
        code: "ko",
        wrote: [
            #"^.{4,}(님이 작성|작성)\s?[:：]$"#,        // Gmail: "2025년 4월 7일 (월) 오전 9:12, Name <addr>님이 작성:"
            #"^.{4,}(님이 씀|씀|님이 보낸 메시지|쓴 글)\s?[:：]$"#, // Apple Mail, Thunderbird ("… 이(가) 쓴 글:")
        ],
        verbs: ["작성", "씀", "메시지", "쓴 글"],
        from: ["보낸 사람", "보낸사람"], dated: ["보낸 날짜", "날짜", "보낸날짜"], fields: ["받는 사람", "받는사람", "제목", "참조"],
        separators: ["원본 메시지", "전달된 메시지", "원본 메일"],
        forwarded: ["전달된 메시지", "전달된 메일"],
        sentFromEnds: ["에서 보냄", "에서 보냄.", "에서 보낸 메일"], sentWithEnds: ["으로 보냄", "로 보냄"],
        getOutlook: ["{os}용 Outlook 받기", "{os}용 Outlook 다운로드", "{os}용 Outlook 가져오기"])

    /// Simplified (zh-Hans) and traditional (zh-Hant) Chinese.
    static let chinese = QuoteLanguage(
        code: "zh",
        wrote: [
            #"^(在|于|於).{4,}(写道|寫道)\s?[:：]$"#,    // Apple Mail, Thunderbird
            #"^.{4,}(写道|寫道|來信|来信)\s?[:：]$"#,      // Gmail: "Name <addr> 於 2025年4月7日 週一 上午9:12寫道：", "…于2025年4月7日周一 09:12写道："
        ],
        verbs: ["写道", "寫道", "來信", "来信"],
        from: ["发件人", "寄件者", "寄件人", "發件人"], dated: ["发送时间", "日期", "寄件日期", "傳送時間", "时间", "時間"],
        fields: ["收件人", "收件者", "主题", "主旨", "抄送", "副本"],
        separators: ["原始邮件", "转发的邮件", "原始郵件", "轉寄的郵件", "原始訊息", "轉寄郵件", "原邮件"],
        forwarded: ["转发的邮件", "轉寄的郵件", "以下為轉寄的郵件", "以下是转发的邮件"],
        sentFromStarts: ["发自我的", "寄自我的", "从我的", "從我的", "发自", "寄自"], sentWithStarts: ["由", "透過"], sentWithEnds: ["傳送", "发送", "寄出"],
        getOutlook: ["获取 {os} 版 Outlook", "获取适用于 {os} 的 Outlook", "下载 {os} 版 Outlook", "取得 {os} 版 Outlook", "下載 {os} 版 Outlook", "取得適用於 {os} 的 Outlook"])

    /// Gmail's numeric header, in several locales: "2025-04-07 09:12 GMT+02:00 Name
    /// <addr>:", Gmail in Japanese and Russian "2025年4月7日(月) 9:12 Name <addr>:",
    /// "пн, 7 апр. 2025 г. в 09:12, Name <addr>:": a date, a time, and an address
    /// closing the line with a colon.
    static let gmailNumeric = QuoteLanguage(
        code: "Gmail (numeric)",
        wrote: [
            #"^[^<>]{0,200}\d[:.：]\d\d[^<>]{0,200}<[^<>\s]{1,200}@[^<>\s]{1,200}>\s?[:：]$"#,
        ],
        verbs: [">:", "> :", ">："])

    /// Yandex Mail: `07.04.2025, 09:12, "Name" <addr>:` (the same shape as Gmail's numeric
    /// header, kept as Yandex's own for the day it changes), and mail.ru's
    /// "Понедельник, 7 апреля 2025, 9:12 +03:00 от Name <addr>:".
    static let yandex = QuoteLanguage(
        code: "Yandex, mail.ru",
        wrote: [
            #"^\d{1,2}\.\d{1,2}\.\d{2,4},?\s.{0,300}<[^<>\s]{1,200}@[^<>\s]{1,200}>\s?:$"#,
            // The lookahead fails at once on a line that does not end in one address
            // (the common case: any line ending ">:"), before `.{4,}` tries each "от".
            #"^(?=[^<>]*<[^<>\s]{1,200}@[^<>\s]{1,200}>\s?:$).{4,}\sот\s[^<>]{1,300}<[^<>\s]{1,200}@[^<>\s]{1,200}>\s?:$"#,
        ],
        verbs: [">:", "> :"])

    /// Zoho Mail: "---- On Mon, 07 Apr 2025 09:12:00 +0200 Name <addr> wrote ----", which
    /// ``QuoteRules`` reads between its dashes with a colon added.
    static let zoho = QuoteLanguage(
        code: "Zoho",
        wrote: [#"^on\s.{4,}\swrote\s?-{0,8}:$"#],
        verbs: ["wrote"])

    /// Clients that put a date before the sender and quote with `|` (Chinese and Korean
    /// webmail, Lotus Notes): "2025/4/7 Name <addr>", read with a colon added when a `|` line follows.
    static let quotingClients = QuoteLanguage(
        code: "Lotus Notes, Asian webmail",
        wrote: [#"^\d{4}[/.-]\d{1,2}[/.-]\d{1,2}\s[^<>]{0,200}<[^<>\s]{1,200}@[^<>\s]{1,200}>:$"#],
        verbs: [">:"])
}
