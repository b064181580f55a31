import ChimeTestSupport
import Foundation
import Testing

/// Snooze by its other words ("Remind me later", "Erinnere mich morgen", "後で"), through
/// the real `chime ingest`: the templates' `action.snooze.also`.
extension CarryingOutTests {
    @Test("a reply may snooze by asking to be reminded, in the shipped languages: Remind me in 2 hours, remind me tomorrow, Later, thanks, Erinnere mich um 15 Uhr, Rappelle-moi dans 2 heures, Recuérdame mañana, Напомни через 2 часа, Przypomnij mi jutro, 明日リマインドして, あとで, ذكرني لاحقا")
    func snoozeByRemindMe() throws {
        let ws = try Self.workspace()
        let pending = try Self.snoozed(ws, [
            ("a", "Remind me in 2 hours"), ("b", "remind me tomorrow"), ("c", "Later, thanks"), ("d", "Erinnere mich um 15 Uhr"),
            ("e", "Rappelle-moi dans 2 heures"), ("f", "Recuérdame mañana"), ("g", "Напомни через 2 часа"), ("h", "Przypomnij mi jutro"),
            ("i", "明日リマインドして"), ("j", "あとで"), ("k", "ذكرني لاحقا"), ("l", "Remind me later"), ("m", "2時間スヌーズ"), ("n", "ذكرني بعد ٢ ساعة"), ("o", "Remind me at 3 today"),
        ])
        // 10:00 UTC is 11:00 in Alice's Paris; the configured snooze is 45 minutes.
        let twoHours = "2026-11-21T12:00:00Z", tomorrow = "2026-11-22T08:00:00Z", byDefault = "2026-11-21T10:45:00Z"
        #expect(pending == ["a": twoHours, "b": tomorrow, "c": byDefault, "d": "2026-11-21T14:00:00Z", "e": twoHours, "f": tomorrow,
                            "g": twoHours, "h": tomorrow, "i": tomorrow, "j": byDefault, "k": byDefault, "l": byDefault, "m": twoHours, "n": twoHours, "o": "2026-11-21T14:00:00Z"],
                "\(pending)")
    }

    @Test("asking to be reminded of something, or at a time before something, saying no, or another sentence after \"Later\" is no snooze; a shopping list's \"Remind me 3 bananas\", \"Przypomnij mi o 2 jajkach\", \"Remind me 4 min noodles\", \"Later tonight I'll call you\" and \"Remind me:\" or \"Later\" over a list are its items, where \"Remind me tomorrow at 9, thanks\" is still a snooze; a category's own action named \"Remind me later\", or one that took \"Snooze\", takes them")
    func remindMeThatIsNoSnooze() throws {
        // The reply corpus's categories (a shopping list taking items, "plain"), and two
        // whose own actions take snooze's words.
        let ws = try ReplyCorpusTests.workspace(ReplyCorpusTests.configuration.replacingOccurrences(of: "  </categories>", with: """
                <category identifier="nag">
                  <action identifier="again" title="Remind me later"/>
                </category>
                <category identifier="timer">
                  <action identifier="restart" title="Restart"/>
                  <action identifier="snoozeTimer" title="Snooze"/>
                </category>
              </categories>
            """))
        let bodies = ["remind me to buy milk", "Later I will do it", "Later? No", "Don't remind me", "Remind me about the milk",
                      "Remind me 2 days before", "Erinnere mich eine Stunde vorher", "Remind me tomorrow? No, forget it", "Remind me at 2 places",
                      "1時間前にリマインドして", "3回リマインドして"]
        try Self.expectEach(ws, bodies, as: "s", category: "plain", toContain: "unmatched")
        #expect(try Self.pending(ws).isEmpty, "nothing snoozed")

        // A shopping list's items stay items.
        let items = ["Remind me 3 bananas", "Przypomnij mi o 2 jajkach", "Rappelle-moi à 2 reprises", "Remind me:\nMilk\nEggs", "Later\nmilk",
                     "Remind me 4 min noodles", "Remind me tomorrow: milk", "Later tonight I'll call you", "Erinnere mich morgen an Milch"]
        try Self.expectEach(ws, items, as: "l", category: "shoppingListReminderCategory", toContain: "responded: addItem")
        #expect(try Self.pending(ws).isEmpty, "nothing snoozed")
        // A time alone, or with thanks, is still a snooze there.
        let asked = try ReplyCorpusTests.send(ws, ["w"])["w"]!
        #expect(try Self.ingest(ws, ReplyCorpusTests.reply(asked, body: "Remind me tomorrow at 9, thanks")).contains("responded: chime.snooze"))
        #expect(try Self.pending(ws).map { $0["nextTriggerDate"] as? String } == ["2026-11-22T08:00:00Z"])

        let nag = try ReplyCorpusTests.send(ws, ["n"], category: "nag")
        let printed = try Self.ingest(ws, ReplyCorpusTests.reply(nag["n"]!, body: "Remind me later"))
        #expect(printed.contains("responded: again"), "the category's action, not Chime's snooze: \(printed)")
        let timer = try ReplyCorpusTests.send(ws, ["t"], category: "timer")["t"]!
        let later = try Self.ingest(ws, ReplyCorpusTests.reply(timer, body: "Later"))
        #expect(later.contains("responded: snoozeTimer"), "the action that took Snooze takes Later: \(later)")
        #expect(try Self.pending(ws).count == 1, "nothing more snoozed")
    }

    @Test("a number of units written in words is that while, in English, German, French and Spanish: Remind me in two hours, twenty minutes, zwei Stunden, deux heures, quince minutos, three days, two weeks; \"two days before\" is still none")
    func spelledNumbers() throws {
        let ws = try Self.workspace()
        let pending = try Self.snoozed(ws, [("a", "Remind me in two hours"), ("b", "Remind me in twenty minutes, thanks"), ("c", "Erinnere mich in zwei Stunden"),
                                            ("d", "Rappelle-moi dans deux heures"), ("e", "Recuérdame en quince minutos"), ("f", "Snooze for three days"),
                                            ("g", "Remind me in two weeks"), ("h", "Schlummern zehn Minuten")])
        #expect(pending == ["a": "2026-11-21T12:00:00Z", "b": "2026-11-21T10:20:00Z", "c": "2026-11-21T12:00:00Z", "d": "2026-11-21T12:00:00Z",
                            "e": "2026-11-21T10:15:00Z", "f": "2026-11-24T10:00:00Z", "g": "2026-12-05T10:00:00Z", "h": "2026-11-21T10:10:00Z"], "\(pending)")
        let corpus = try ReplyCorpusTests.workspace()
        let before = try ReplyCorpusTests.send(corpus, ["n"], category: "plain")["n"]!
        #expect(try Self.ingest(corpus, ReplyCorpusTests.reply(before, body: "Remind me two days before")).contains("unmatched"))
    }

    @Test("a number of units written in words is that while in Russian and Polish too, its unit in the number's case: через два часа, на пять минут, через три дня, za dwie godziny, za piętnaście minut, na dwa tygodnie; в два часа is no two hours")
    func spelledNumbersTakingCase() throws {
        let ws = try Self.workspace()
        let pending = try Self.snoozed(ws, [("a", "Напомни через два часа"), ("b", "Отложи на пять минут, спасибо"), ("c", "Напомни через три дня"),
                                            ("d", "Отложить на двадцать минут"), ("e", "Przypomnij za dwie godziny"), ("f", "Przypomnij mi za piętnaście minut"),
                                            ("g", "Drzemka na dwa tygodnie"), ("h", "Przypomnij za czterdzieści pięć minut"), ("i", "Напомни через пару часов"),
                                            ("j", "Напомни через двадцать пять минут"), ("k", "Przypomnij za parę minut")])
        #expect(pending == ["a": "2026-11-21T12:00:00Z", "b": "2026-11-21T10:05:00Z", "c": "2026-11-24T10:00:00Z", "d": "2026-11-21T10:20:00Z",
                            "e": "2026-11-21T12:00:00Z", "f": "2026-11-21T10:15:00Z", "g": "2026-12-05T10:00:00Z", "h": "2026-11-21T10:45:00Z",
                            "i": "2026-11-21T12:00:00Z", "j": "2026-11-21T10:25:00Z", "k": "2026-11-21T10:02:00Z"], "\(pending)")
        let other = try Self.workspace()
        let printed = try Self.answer(other, "z", "Напомни в два часа")
        let twoOClock = try Self.pending(other).map { $0["nextTriggerDate"] as? String ?? "" }
        #expect(!twoOClock.contains("2026-11-21T12:00:00Z"), "\(printed) \(twoOClock)")
    }

    @Test("Not now is a snooze, alone, with thanks or before a sentence of its own, in the shipped languages: Nicht jetzt, Pas maintenant, Ahora no, Не сейчас, Nie teraz")
    func notNowSnoozes() throws {
        let ws = try ReplyCorpusTests.workspace()
        let snoozes = ["Not now", "Not now, thanks", "Not right now, I'm driving", "Nicht jetzt", "Jetzt nicht, danke", "Pas maintenant", "Ahora no",
                       "Не сейчас", "Nie teraz"]
        try Self.expectEach(ws, snoozes, as: "p", category: "plain", toContain: "responded: chime.snooze (carried out)")
        #expect(try Self.pending(ws).count == snoozes.count, "each snoozed")
    }

    @Test("a snooze may come after OK or yes, in a question (Can you remind me later?), in a while's words (Remind me in a bit, Más tarde hoy), or before a sentence of its own where the category takes no text (Later, I'm in a meeting); a no or a but after it, or a question for something else, is none, and a shopping list takes the sentence as its item")
    func snoozeAskedAsPeopleAsk() throws {
        let ws = try ReplyCorpusTests.workspace()
        let snoozes = ["OK, remind me later", "Sure, remind me tomorrow", "Can you remind me later?", "Could you remind me in 2 hours?",
                       "OK, can you please remind me later?", "Yes, later", "Okay later", "了解です、リマインドして", "Remind me later, I'm busy",
                       "Later, I'm in a meeting", "Later - driving", "Remind me in a bit", "In a while", "Plus tard dans la journée",
                       "Más tarde hoy", "En un rato"]
        try Self.expectEach(ws, snoozes, as: "p", category: "plain", toContain: "responded: chime.snooze (carried out)")
        let times = Dictionary(uniqueKeysWithValues: try Self.pending(ws).map { ($0["identifier"] as? String ?? "", $0["nextTriggerDate"] as? String ?? "") })
        #expect(times.count == snoozes.count, "\(times)")
        #expect(times["p1"] == "2026-11-22T08:00:00Z" && times["p3"] == "2026-11-21T12:00:00Z", "tomorrow morning and in two hours: \(times)")

        let none = ["Later, but not today", "Later, no thanks", "Later? No", "Could you remind me to buy milk?", "Can you help me?", "OK", "Later I will do it"]
        try Self.expectEach(ws, none, as: "n", category: "plain", toContain: "unmatched")
        #expect(try Self.pending(ws).count == snoozes.count, "nothing more snoozed")

        // A shopping list: a sentence after the snooze's word is the item it takes, where
        // OK or a question before the word still snoozes.
        let items = ["Later, I'm in a meeting", "Remind me later, I'm busy", "Later, but not today", "OK, milk"]
        try Self.expectEach(ws, items, as: "l", category: "shoppingListReminderCategory", toContain: "responded: addItem")
        #expect(try Self.replied(ws, [("q", "OK, can you remind me later?")], category: "shoppingListReminderCategory")["q"]?.contains("responded: chime.snooze") == true)
        #expect(try Self.pending(ws).count == snoozes.count + 1)
    }

    @Test("snooze's Japanese word after its time is found past another of its words (1時間あとでスヌーズ), and 午後で is no あとで; again before リマインド is passed over")
    func japaneseSnoozeWords() throws {
        let ws = try Self.workspace()
        let pending = try Self.snoozed(ws, [("a", "明日の午後でスヌーズ"), ("b", "1時間あとでスヌーズ"), ("c", "3時間後にまたリマインドして"),
                                            ("d", "2時間あとでリマインドして"), ("e", "あとでリマインドしてください")])
        #expect(pending == ["a": "2026-11-22T13:00:00Z", "b": "2026-11-21T11:00:00Z", "c": "2026-11-21T13:00:00Z", "d": "2026-11-21T12:00:00Z",
                            "e": "2026-11-21T10:45:00Z"], "\(pending)")
    }

    @Test("a templates folder's action.snooze.also adds a language's words for snooze: Swedish's Påminn mig")
    func snoozeWordsOfATemplatesFolder() throws {
        let ws = try Self.workspace()
        // A templates folder of the workspace's own, not the repository's that it links to.
        try FileManager.default.removeItem(atPath: ws.path("templates"))
        try FileManager.default.createDirectory(atPath: ws.path("templates/sv"), withIntermediateDirectories: true)
        try ws.write("templates/sv/Localizable.strings", """
            "action.snooze" = "Snooza";
            "action.snooze.also" = "Påminn mig senare, Påminn mig";

            """)
        let pending = try Self.snoozed(ws, [("a", "Påminn mig 2h"), ("b", "påminn mig senare"), ("c", "Snooza 2h")])
        #expect(pending == ["a": "2026-11-21T12:00:00Z", "b": "2026-11-21T10:45:00Z", "c": "2026-11-21T12:00:00Z"], "\(pending)")
    }
}
