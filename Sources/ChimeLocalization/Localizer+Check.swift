import ChimeCore

extension Localizer {
    /// What `chime check` says of a configuration's localizable values: for each value
    /// that names a key and each recipient locale, a warning when the locale's own files
    /// lack it and another locale supplies it, an error when no locale of its chain has
    /// it (the raw key would show).
    public func check(_ configuration: Configuration, templates: String) -> [Diagnostic] {
        var keys: [String] = []
        for category in configuration.categories {
            keys += [category.hiddenPreviewsBodyPlaceholder, category.categorySummaryFormat].compactMap { $0 }
            for action in category.actions {
                keys += [action.title, action.textInput?.buttonTitle, action.textInput?.placeholder].compactMap { $0 }
            }
        }
        var seen = Set<String>()
        keys = keys.filter { isKey($0) && seen.insert($0).inserted }
        let wanted = Array(Set(configuration.recipients.map(\.locale))).sorted()
        return duplicateKeys(templates: templates) + gaps(keys: keys, locales: wanted).map { gap in
            let location = SourceLocation(file: templates + "/" + (LocaleFallback.chain(gap.locale).first { locales.contains($0) } ?? gap.locale))
            if let supplier = gap.suppliedBy {
                return Diagnostic(.warning, at: location, "\"\(gap.key)\" is missing for \(gap.locale); \(supplier) supplies it")
            }
            return Diagnostic(.error, at: location, "\"\(gap.key)\" is missing for \(gap.locale) and every locale it falls back to")
        }
    }

    /// A warning for each key a locale's `Localizable.strings` gives twice.
    func duplicateKeys(templates: String) -> [Diagnostic] {
        locales.flatMap { locale in
            (stringsFile(locale)?.duplicates ?? []).map { duplicate in
                Diagnostic(.warning, at: SourceLocation(file: "\(templates)/\(locale)/Localizable.strings", line: duplicate.line, column: duplicate.column),
                           "\"\(duplicate.key)\" is given twice (first on line \(duplicate.firstLine)); this later one wins")
            }
        }
    }
}
