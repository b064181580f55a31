import Foundation

/// A real IMAP server for one test: Debian's Dovecot (`dovecot-imapd`), run in the
/// foreground on 127.0.0.1 with its own configuration, one user whose password is made
/// up per run, and a Maildir the test fills. Plain IMAP (with STARTTLS) and IMAPS listen
/// on two free ports, with the test's own certificate. Stopped when this value goes.
public final class DovecotServer: @unchecked Sendable { // immutable after init
    public let imapPort: Int
    public let imapsPort: Int
    public let user = "chime"
    public let password = "pw-" + UUID().uuidString.prefix(12)
    public let folder: URL
    private let process: Process

    public init(certificate: ScriptServer.Certificate) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-imap-\(UUID().uuidString.prefix(8))")
        for name in ["run", "state", "mail", "home"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        imapPort = LocalPort.free()
        imapsPort = LocalPort.free()
        // As root, Dovecot will not give mail to uid 0: the mail user is nobody. Otherwise
        // everything runs as the user running the tests.
        let root = getuid() == 0
        let mailUser = root ? "uid=65534 gid=65534" : "uid=\(getuid()) gid=\(getgid())"
        let me = root ? "" : """
            default_internal_user = \(NSUserName())
            default_login_user = \(NSUserName())
            default_internal_group = \(String(cString: getgrgid(getgid()).pointee.gr_name))
            """
        let base = folder.path
        let configuration = """
            base_dir = \(base)/run
            state_dir = \(base)/state
            log_path = \(base)/dovecot.log
            \(me)
            protocols = imap
            listen = 127.0.0.1
            ssl = yes
            ssl_cert = <\(certificate.cert)
            ssl_key = <\(certificate.key)
            auth_mechanisms = plain login
            first_valid_uid = 0
            mail_location = maildir:\(base)/mail/%u
            passdb {
              driver = passwd-file
              args = scheme=PLAIN username_format=%u \(base)/users
            }
            userdb {
              driver = static
              args = \(mailUser) home=\(base)/home/%u
            }
            service imap-login {
              chroot =
              inet_listener imap {
                address = 127.0.0.1
                port = \(imapPort)
              }
              inet_listener imaps {
                address = 127.0.0.1
                port = \(imapsPort)
                ssl = yes
              }
            }
            service anvil {
              chroot =
            }
            """
        try configuration.write(to: folder.appendingPathComponent("dovecot.conf"), atomically: true, encoding: .utf8)
        try "\(user):{PLAIN}\(password)\n".write(to: folder.appendingPathComponent("users"), atomically: true, encoding: .utf8)
        for name in ["new", "cur", "tmp"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("mail/\(user)/\(name)"), withIntermediateDirectories: true)
        }
        try Self.openUp(folder.appendingPathComponent("mail"))
        try Self.openUp(folder.appendingPathComponent("home"))
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/dovecot")
        process.arguments = ["-F", "-c", folder.appendingPathComponent("dovecot.conf").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "cannot start /usr/sbin/dovecot (is dovecot-imapd installed?): \(error)"])
        }
        // Ready when both ports accept connections.
        guard LocalPort.listening(imapPort), LocalPort.listening(imapsPort) else {
            kill(process.processIdentifier, SIGKILL)
            let log = (try? String(contentsOf: folder.appendingPathComponent("dovecot.log"), encoding: .utf8)) ?? ""
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "dovecot did not start: \(log)"])
        }
    }

    deinit {
        // SIGKILL: Dovecot keeps the signal mask it was started with, and a test runner's
        // threads block SIGTERM. Its other processes leave when the master goes.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The user's INBOX, a Maildir.
    public var inbox: URL { folder.appendingPathComponent("mail/\(user)") }

    /// Another mailbox of the user (Maildir++: `.Name`).
    public func mailbox(_ name: String) -> URL { inbox.appendingPathComponent("." + name) }

    /// Delivers a message into the INBOX (or the Maildir++ folder of another mailbox, its
    /// name as Dovecot keeps it on disk: `Antw&APY-rten`, made when missing) as an MTA
    /// would (new/), readable by the server.
    public func deliver(_ message: String, named name: String = UUID().uuidString, into mailbox: String? = nil) throws {
        let folder = mailbox.map(self.mailbox) ?? inbox
        for sub in ["cur", "new", "tmp"] where !FileManager.default.fileExists(atPath: folder.appendingPathComponent(sub).path) {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
            try Self.openUp(folder)
        }
        let file = folder.appendingPathComponent("new/\(name)")
        try message.write(to: file, atomically: false, encoding: .utf8)
        chmod(file.path, 0o666)
    }

    /// Puts a message in the INBOX as a killed fetch would leave it: seen, and carrying
    /// the keyword it was marked with before it was fetched.
    public func leaveMarked(_ message: String, keyword: String) throws {
        try "0 \(keyword)\n".write(to: inbox.appendingPathComponent("dovecot-keywords"), atomically: true, encoding: .utf8)
        chmod(inbox.appendingPathComponent("dovecot-keywords").path, 0o666)
        let file = inbox.appendingPathComponent("cur/\(UUID().uuidString):2,Sa")
        try message.write(to: file, atomically: false, encoding: .utf8)
        chmod(file.path, 0o666)
    }

    /// The names of the messages in a Maildir folder (`new`, `cur`) of a mailbox.
    public static func messages(in mailbox: URL, _ subfolder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: mailbox.appendingPathComponent(subfolder).path)) ?? []).sorted()
    }

    /// Lets the mail user (nobody, when the tests run as root) write where Dovecot keeps mail.
    private static func openUp(_ url: URL) throws {
        chmod(url.path, 0o777)
        for case let path as String in FileManager.default.enumerator(atPath: url.path) ?? NSEnumerator() {
            chmod(url.appendingPathComponent(path).path, 0o777)
        }
    }
}
