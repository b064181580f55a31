/// `90s`, `10m`, `2h`, `1d`, and sequences such as `1h30m`.
public enum DurationText {
    public static func seconds(_ text: String) -> Int64? {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        var total: Int64 = 0
        var digits = ""
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if let unit = units[character], let value = Int64(digits) {
                let (product, overflow) = value.multipliedReportingOverflow(by: unit)
                let (sum, overflowed) = total.addingReportingOverflow(product)
                // Beyond a thousand years is a typo, not a reminder.
                guard !overflow, !overflowed, sum <= 1_000 * 366 * 86_400 else { return nil }
                total = sum
                digits = ""
            } else {
                return nil
            }
        }
        return digits.isEmpty && total > 0 ? total : nil
    }
}
