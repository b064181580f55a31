import ChimeCore
import Foundation

/// The lines a reply may open with before its answer: greetings, whom a Japanese letter
/// addresses, and who writes.
extension ActionMatcher {
    /// Greetings that may stand alone on a reply's first line, folded.
    static let greetings: Set<String> = Set([
        "hi", "hello", "hey", "dear", "good morning", "good afternoon", "good evening", "morning", "greetings",
        "dear sir or madam", "dear all", "hi all", "hello all", "hi team", "hello team",
        "bonjour", "bonsoir", "salut", "coucou", "cher", "chère", "chers", "chères", "madame, monsieur", "madame", "monsieur",
        "hallo", "guten tag", "guten morgen", "guten abend", "moin", "servus", "liebe", "lieber", "hallo zusammen",
        "sehr geehrte", "sehr geehrter", "sehr geehrte damen und herren",
        "hola", "buenos días", "buenas", "buenas tardes", "buenas noches", "estimado", "estimada", "estimados", "estimadas",
        "estimados señores", "estimadas señoras", "muy señores míos", "muy señor mío",
        "querido", "querida", "queridos",
        "buongiorno", "buonasera", "ciao", "salve", "gentile", "gentili", "egregio", "egregia", "caro", "cara", "cari",
        "olá", "ola", "oi", "bom dia", "boa tarde", "boa noite", "prezado", "prezada", "prezados", "caros",
        "hoi", "goedemorgen", "goedemiddag", "goedenavond", "beste", "geachte", "hej", "hejsan", "god morgon", "hei",
        "grüß gott", "grüss gott", "grüezi", "grüß dich", "hallo ihr",
        "ahoj", "dobrý den", "dobré ráno", "vážený", "vážená", "vážení", "merhaba", "selam", "günaydın", "iyi günler", "sayın",
        "здравствуй", "доброго дня", "доброго времени суток", "доброй ночи", "добрий день", "вітаю",
        "привет", "здравствуйте", "добрый день", "доброе утро", "добрый вечер", "уважаемый", "уважаемая", "уважаемые", "дорогой", "дорогая",
        "cześć", "dzień dobry", "witam", "witaj", "szanowny", "szanowna", "szanowni", "szanowni państwo", "drogi", "droga",
        "مرحبا", "السلام عليكم", "صباح الخير",
        "こんにちは", "おはようございます", "こんばんは", "お疲れ様です", "お疲れさまです", "你好", "您好",
        "お世話になっております", "お世話になります", "いつもお世話になっております", "大家好", "各位好",
        "안녕하세요", "안녕", "שלום", "היי", "γεια σας", "γεια", "καλημέρα", "αγαπητέ", "αγαπητή", "สวัสดี", "สวัสดีครับ", "สวัสดีค่ะ",
        "xin chào", "chào", "chào anh", "chào chị", "chào bạn", "halo", "hai", "selamat pagi", "selamat siang", "selamat sore",
        "नमस्ते", "नमस्कार", "добрий день", "доброго ранку", "привіт", "шановний", "шановна", "шановні",
        "مرحبًا", "أهلا", "مساء الخير", "عزيزي", "عزيزتي",
    ].map(ReplyWords.fold))

    /// ``greetings``, the longest first (then in order of their bytes).
    static let greetingsLongestFirst = greetings.sorted { ($0.utf8.count, $1) > ($1.utf8.count, $0) }

    /// A first line that only greets: a greeting, perhaps a name (three words at most:
    /// "Sehr geehrte Frau Dr. Müller,"), then a comma, an exclamation mark, a full stop
    /// or a colon (Spanish and German letters: "Estimados señores:", "Hola Ana:"), or
    /// nothing else.
    static func isGreeting(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let folded = ReplyWords.fold(trimmed)
        // Japanese letters open with whom they address: "Chime様", "山田さん", "関係者各位".
        if trimmed.count <= 24, ["様", "さま", "さん", "殿", "各位", "先生"].contains(where: { folded.hasSuffix($0) }) { return true }
        // Compared as bytes, the greeting then a space or the end: building `greeting + " "`
        // for each of them and comparing Characters had made this 30,000 instructions a
        // reply (15,000 now, most of it the folding).
        let bytes = folded.utf8
        // The longest that begins the line ("buenas tardes", not "buenas"): the same line
        // is the same answer in every process, whatever order the set is visited in.
        guard let greeting = greetingsLongestFirst.first(where: { greeting in
            bytes.starts(with: greeting.utf8) && bytes.dropFirst(greeting.utf8.count).first.map { $0 == 0x20 } ?? true
        }) else { return false }
        let after = folded.dropFirst(greeting.count).split(separator: " ")
        if after.isEmpty { return true }
        // A name after it, two words at most, then a comma or a stop ("Bonjour Anna,").
        if after.count <= 2, [",", "!", "，", ".", "！"].contains(where: { trimmed.hasSuffix($0) }) { return true }
        // Up to three words of a name and a title, capitalized, then a comma or a colon
        // ("Sehr geehrte Frau Dr. Müller,", "Hola Ana:", "مرحبا أحمد،"): "Hola, leche de
        // avena:" is an answer. A name is no list: one comma at most before its end
        // ("Hola, Ana:", not "Hallo, Hafermilch, Eier, Brot:").
        if after.count <= 3, [",", "，", ":", "：", "،"].contains(where: { trimmed.hasSuffix($0) }),
           trimmed.dropLast().filter({ ",，،".contains($0) }).count <= 1 {
            let words = trimmed.split { !$0.isLetter && !$0.isNumber }.suffix(after.count)
            return words.allSatisfy { word in word.first.map { $0.isUppercase || !$0.isLowercase } ?? false }
        }
        // Who writes, after a Japanese greeting: "こんにちは、山田です。".
        if ["。", "、"].contains(where: { trimmed.hasSuffix($0) }), let last = trimmed.split(whereSeparator: { "、，, 　".contains($0) }).last {
            return introduces(String(last))
        }
        return false
    }

    /// A short line saying who writes, as a Japanese letter does after its greeting:
    /// "山田です。", "営業部の田中です".
    static func introduces(_ line: String) -> Bool {
        var trimmed = Substring(line.trimmingCharacters(in: .whitespaces))
        while let last = trimmed.last, "。.！!".contains(last) { trimmed.removeLast() }
        // A name and where it is from ("営業部の田中"), not a sentence: "買うものは卵です"
        // (what to buy is eggs) has its topic's particle.
        guard trimmed.count <= 16, trimmed.count > 2, trimmed.hasSuffix("です") || trimmed.hasSuffix("でございます") else { return false }
        return !trimmed.contains { "はがをもにへ".contains($0) }
    }
}
