/// The strings shipped in `templates/`, compiled into chime (Package.swift's
/// `builtInLocales`): what a ``Localizer`` starts from before a templates folder's files
/// override them key by key.
enum BuiltInStrings {
    /// Each shipped locale's `Localizable.strings` and `Localizable.stringsdict`, as bytes.
    static let files: [(locale: String, strings: [UInt8], stringsdict: [UInt8])] = [
        ("ar", PackageResources.ar_strings, PackageResources.ar_stringsdict),
        ("de", PackageResources.de_strings, PackageResources.de_stringsdict),
        ("en", PackageResources.en_strings, PackageResources.en_stringsdict),
        ("es", PackageResources.es_strings, PackageResources.es_stringsdict),
        ("fr", PackageResources.fr_strings, PackageResources.fr_stringsdict),
        ("ja", PackageResources.ja_strings, PackageResources.ja_stringsdict),
        ("pl", PackageResources.pl_strings, PackageResources.pl_stringsdict),
        ("ru", PackageResources.ru_strings, PackageResources.ru_stringsdict),
    ]

    /// The files parsed, once per process; a file that does not parse (the test suite
    /// reads each) is left out rather than stopping every command.
    static let parsed: (strings: [String: StringsFile], plurals: [String: StringsDictFile]) = {
        var strings: [String: StringsFile] = [:]
        var plurals: [String: StringsDictFile] = [:]
        for file in files {
            strings[file.locale] = try? StringsFile(bytes: file.strings)
            plurals[file.locale] = try? StringsDictFile(bytes: file.stringsdict, path: "(built in)/\(file.locale)/Localizable.stringsdict")
        }
        return (strings, plurals)
    }()
}

extension StringsFile {
    /// These strings with `other`'s over them, key by key (a templates folder's file over
    /// the built-in one); the duplicates are `other`'s, the file a person wrote.
    func overlaid(by other: StringsFile) -> StringsFile {
        var merged = other
        merged.table = table.merging(other.table) { $1 }
        return merged
    }
}

extension StringsDictFile {
    /// These entries with `other`'s over them, key by key.
    func overlaid(by other: StringsDictFile) -> StringsDictFile {
        var merged = other
        merged.entries = entries.merging(other.entries) { $1 }
        return merged
    }
}
