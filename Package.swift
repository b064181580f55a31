// swift-tools-version:6.0
import PackageDescription

/// The locales of templates/ whose strings are compiled into chime (BuiltInStrings.swift
/// names the same).
let builtInLocales = ["ar", "de", "en", "es", "fr", "ja", "pl", "ru"]

let package = Package(
    name: "chime",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "chime", targets: ["chime"]),
        .library(name: "ChimeCore", targets: ["ChimeCore"]),
        .library(name: "ChimeConfig", targets: ["ChimeConfig"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // Hummingbird's own dependencies, named for the types chime serve uses directly
        // (SwiftNIO's and its HTTP types' for a channel handler, RequestBodyDeadline).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Metrics: the libraries count through swift-metrics' API alone; only the chime
        // executable bootstraps swift-prometheus's registry, which `GET /metrics` writes.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // The PostgreSQL store's client: a connection pool over SwiftNIO.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // C libraries, each imported by exactly one Swift module (ChimeCurl, ChimeXML,
        // ChimeMIME). libcurl is not linked: CChimeCurl loads it on first use (its
        // header says why) and needs only its header (Debian's libcurl4-openssl-dev).
        .target(name: "CChimeCurl", linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(
            name: "CChimeXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),

        .systemLibrary(
            name: "CChimeGMime",
            pkgConfig: "gmime-3.0",
            providers: [.apt(["libgmime-3.0-dev"])]
        ),

        // The model: categories, channels, recipients and their rules. No I/O, no C.
        .target(name: "ChimeCore"),

        // The libxml2 wrapper: documents, XSD validation, located errors.
        .target(name: "ChimeXML", dependencies: ["ChimeCore", "CChimeXML2"]),

        // The libcurl wrapper: easy handles owned by Swift objects.
        .target(name: "ChimeCurl", dependencies: ["CChimeCurl"]),

        // SQLite's unix VFS writing each frame of the write-ahead log in one pwrite, not two
        // (its source says why); imported by ChimeSQLite alone.
        .target(name: "CChimeSQLiteVFS", linkerSettings: [.linkedLibrary("sqlite3")]),

        // The SQLite store (GRDB): WAL, named forward-only migrations, explicit claims.
        .target(name: "ChimeSQLite", dependencies: ["ChimeCore", "CChimeSQLiteVFS", .product(name: "GRDB", package: "GRDB.swift"),
                                                    .product(name: "GRDBSQLite", package: "GRDB.swift")]),

        // The PostgreSQL store (PostgresNIO): the same tables as SQLite's, claims that hold
        // under many workers, LISTEN/NOTIFY for sooner work.
        .target(name: "ChimePostgres", dependencies: ["ChimeCore", .product(name: "PostgresNIO", package: "postgres-nio"),
                                                      .product(name: "Logging", package: "swift-log")]),

        // Local transports: Maildir and JSON lines.
        .target(name: "ChimeTransport", dependencies: ["ChimeCore"]),

        // Scheduling and firing: requests in, due notifications claimed, delivered, completed.
        .target(name: "ChimeDelivery", dependencies: ["ChimeCore", "ChimeCurl", .product(name: "Crypto", package: "swift-crypto"),
                                                      .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics")]),
        .target(name: "ChimeScheduler", dependencies: ["ChimeCore", "ChimeTransport", "ChimeDelivery", "ChimeCurl",
                                                       .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics")]),

        // Localization: CLDR plural data, Apple .strings and .stringsdict, locale fallback.
        .target(
            name: "ChimeLocalization",
            dependencies: ["ChimeCore", "ChimeXML"],
            exclude: ["CLDR/LICENSE"],
            // The shipped strings, compiled in (BuiltIn/LOCALE.strings are links to
            // templates/LOCALE/Localizable.*): an installed chime speaks every shipped
            // language from anywhere; a templates folder overrides them key by key.
            resources: [.embedInCode("CLDR/plurals.xml")] + builtInLocales.flatMap { locale -> [Resource] in
                [.embedInCode("BuiltIn/\(locale).strings"), .embedInCode("BuiltIn/\(locale).stringsdict")]
            }
        ),

        // MIME messages through GMime: the only module that imports CChimeGMime.
        .target(name: "ChimeMIME", dependencies: ["ChimeCore", "CChimeGMime"]),

        // Rendering: hidden previews applied, chat payloads per platform, and (to come)
        // the templates and the MIME email.
        .target(
            name: "ChimeRendering",
            dependencies: ["ChimeCore", "ChimeLocalization", "ChimeMIME", .product(name: "Mustache", package: "swift-mustache")],
            resources: [
                .embedInCode("Templates/email.text.mustache"),
                .embedInCode("Templates/email.html.mustache"),
                .embedInCode("Templates/chat.text.mustache"),
            ]
        ),

        // Replies: signed tokens (swift-crypto's HMAC), machine mail, reply text, action
        // matching, and the desk that turns an inbound message into a response.
        .target(
            name: "ChimeReply",
            dependencies: ["ChimeCore", "ChimeMIME", "ChimeXML", "ChimeRendering", .product(name: "Crypto", package: "swift-crypto"),
                           .product(name: "Metrics", package: "swift-metrics")]
        ),

        // Carrying out responses: snooze and done, hooks (commands, signed webhook POSTs),
        // and the answer in the person's thread.
        .target(
            name: "ChimeActions",
            dependencies: ["ChimeCore", "ChimeLocalization", "ChimeRendering", "ChimeReply", "ChimeMIME", "ChimeTransport", "ChimeCurl"]
        ),

        // `chime serve`: chat callbacks (Slack, Discord, Mattermost, Telegram) verified
        // before they are parsed, and signed action links, over Hummingbird.
        .target(
            name: "ChimeServer",
            dependencies: ["ChimeCore", "ChimeReply", "ChimeActions", "ChimeRendering", "ChimeDelivery",
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdCore", package: "hummingbird"),
                           .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                           .product(name: "Crypto", package: "swift-crypto"),
                           .product(name: "Logging", package: "swift-log"), .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "Metrics", package: "swift-metrics")],
            // The HTTP API's OpenAPI 3.1 document, served at /v1/openapi.json.
            resources: [.embedInCode("openapi.json")]
        ),

        // chime.xml: the shipped XSD, the reader, ${ENV} and file: indirection.
        .target(
            name: "ChimeConfig",
            dependencies: ["ChimeCore", "ChimeXML"],
            resources: [.embedInCode("chime.xsd")]
        ),

        // The composition: given the paths the options name, the configuration, the store,
        // the scheduler, the reply and action desks, the mail intake and `chime serve`'s
        // services, assembled one way for the command line, the benchmark and the tests.
        .target(
            name: "ChimeRuntime",
            dependencies: [
                "ChimeCore", "ChimeConfig", "ChimeXML", "ChimeCurl", "ChimeSQLite", "ChimePostgres", "ChimeTransport", "ChimeScheduler", "ChimeDelivery",
                "ChimeLocalization", "ChimeRendering", "ChimeMIME", "ChimeReply", "ChimeActions", "ChimeServer",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // The command line: parses arguments and delegates to the libraries.
        .executableTarget(
            name: "chime",
            dependencies: [
                "ChimeCore", "ChimeConfig", "ChimeXML", "ChimeCurl", "ChimeSQLite", "ChimePostgres", "ChimeTransport", "ChimeScheduler", "ChimeDelivery",
                "ChimeLocalization", "ChimeRendering", "ChimeMIME", "ChimeReply", "ChimeActions", "ChimeServer", "ChimeRuntime",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            // Release: the Swift runtime and Foundation linked in, not loaded at each start
            // (chime run from cron starts often): chime --version 25.7 → 19.2 ms CPU. The
            // static Foundation's ICU and helpers are named, which autolinking misses.
            linkerSettings: [
                .unsafeFlags(["-static-stdlib"], .when(configuration: .release)),
            ] + ["Foundation", "CoreFoundation", "FoundationInternationalization", "_FoundationICU", "FoundationEssentials", "_FoundationCShims",
                 "_FoundationCollections"].map { .linkedLibrary($0, .when(platforms: [.linux], configuration: .release)) }
        ),

        // `swift run -c release chime-bench`: figures of `chime run` on a million pending
        // requests, printed with their baseline; not a test.
        .executableTarget(
            name: "chime-bench",
            dependencies: ["ChimeCore", "ChimeSQLite", "ChimeRendering", "ChimeLocalization", "ChimeMIME", "CChimeCurl", "ChimeCurl", "ChimeTestSupport"],
            path: "Benchmarks/chime-bench"
        ),

        // `script/fuzz SECONDS`: each parser of outside input under libFuzzer (a build of its
        // own with -sanitize=fuzzer); built plainly, it replays the seed corpora and the
        // crashes found (`chime-fuzz replay Tests/Fuzz`), which FuzzReplayTests runs.
        .executableTarget(
            name: "chime-fuzz",
            dependencies: ["ChimeCore", "ChimeConfig", "ChimeLocalization", "ChimeMIME", "ChimeReply", "ChimeSQLite"],
            path: "Tests/Fuzz",
            exclude: ["corpus", "regressions"]
        ),

        // What several test targets share: the strict email parser, the real servers they
        // start, what they draw from a seeded generator, files for a child process's output.
        .target(name: "ChimeTestSupport", dependencies: ["ChimeCore"], path: "Tests/ChimeTestSupport", exclude: ["Servers"]),

        .testTarget(name: "ChimeCoreTests", dependencies: ["ChimeCore", "ChimeTestSupport"]),
        .testTarget(name: "ChimeXMLTests", dependencies: ["ChimeXML", "CChimeXML2"]),
        .testTarget(name: "ChimeCurlTests", dependencies: ["ChimeCurl", "ChimeTestSupport"]),
        .testTarget(name: "ChimeDeliveryTests", dependencies: ["ChimeDelivery", "ChimeCurl"]),
        .testTarget(name: "ChimeConfigTests", dependencies: ["ChimeConfig"], exclude: ["Fixtures"]),
        .testTarget(name: "ChimeLocalizationTests", dependencies: ["ChimeLocalization"]),
        .testTarget(name: "ChimeMIMETests", dependencies: ["ChimeMIME", "ChimeTestSupport"]),
        .testTarget(name: "ChimeRenderingTests", dependencies: ["ChimeRendering", "ChimeMIME", "ChimeTestSupport"], exclude: ["Golden"]),
        .testTarget(name: "ChimeSQLiteTests", dependencies: ["ChimeSQLite", "CChimeSQLiteVFS", "ChimeTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "ChimePostgresTests", dependencies: ["ChimePostgres", "ChimeCore", "ChimeTestSupport"]),
        // One specification of the store protocols, run against every store.
        .testTarget(name: "ChimeStoreConformanceTests", dependencies: ["ChimeCore", "ChimeSQLite", "ChimePostgres", "ChimeTestSupport"]),
        .testTarget(name: "ChimeTransportTests", dependencies: ["ChimeTransport", "ChimeRendering", "ChimeLocalization", "ChimeMIME", "ChimeTestSupport"]),
        .testTarget(name: "ChimeCLITests", dependencies: ["ChimeCore", "ChimeMIME", "ChimeTestSupport", .product(name: "Crypto", package: "swift-crypto")], exclude: ["Fixtures"]),
        .testTarget(name: "ChimeRuntimeTests", dependencies: ["ChimeRuntime", "ChimeCore", "ChimeCurl", "ChimeTestSupport",
                                                          .product(name: "Hummingbird", package: "hummingbird"), .product(name: "Logging", package: "swift-log"),
                                                          .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]),
        .testTarget(name: "ChimeServerTests", dependencies: ["ChimeServer", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "ChimeReplyTests", dependencies: ["ChimeReply", "ChimeCore", "ChimeMIME", "ChimeXML", .product(name: "Crypto", package: "swift-crypto")],
                    exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
