import CLibPQ

/// Where a list kept in PostgreSQL lives: a `postgres://` or `postgresql://` URL, as libpq
/// reads it (`postgres://[user[:password]@][host][:port][/database][?parameter=value…]`;
/// a host that starts with `/`, such as `?host=/tmp`, is a Unix socket directory).
///
/// Its ``description`` names the server without the password, for messages: the password,
/// in the URL or its `password=` parameter, is never printed.
///
/// ```swift
/// let url = try PostgresURL("postgres://alice:secret@db.example/todo")
/// print(url)   // postgres://alice@db.example/todo
/// ```
public struct PostgresURL: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The URL as given, password included: what libpq connects with.
    let connectionString: String
    /// The password, if the URL holds one, percent-decoded and as written, to keep out of
    /// messages.
    private let secrets: [String]

    /// Reads `text` as a PostgreSQL URL.
    ///
    /// - Throws: ``Invalid`` when it is not one, saying why (never with its password).
    public init(_ text: String) throws(Invalid) {
        // libpq reads the scheme as written: POSTGRES:// is not one.
        let scheme = Self.schemes.first { text.hasPrefix($0 + "://") }
        guard let scheme else {
            throw Invalid(reason: "it does not start with postgres:// or postgresql://")
        }
        connectionString = text
        secrets = Self.passwords(in: String(text.dropFirst(scheme.count + 3)))
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &message) else {
            defer { PQfreemem(message) }
            let reason = message.map { PostgresConnection.oneLine(String(cString: $0)) } ?? "libpq cannot read it"
            throw Invalid(reason: Self.redact(reason, secrets: secrets))
        }
        PQconninfoFree(options)
    }

    /// The schemes libpq takes as a URL.
    static let schemes = ["postgresql", "postgres"]

    /// The URL without its password: `postgres://alice@db.example/todo`.
    public var description: String {
        let separator = connectionString.range(of: "://")!
        let scheme = connectionString[..<separator.lowerBound]
        let rest = connectionString[separator.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            let user = authority[..<at].prefix { $0 != ":" }
            authority = user + authority[at...]
        }
        let pathAndQuery = rest[authorityEnd...]
        var shown = scheme + "://" + authority
        if let questionMark = pathAndQuery.firstIndex(of: "?") {
            shown += pathAndQuery[..<questionMark]
            let kept = pathAndQuery[pathAndQuery.index(after: questionMark)...].split(separator: "&").filter {
                !Self.isSecret($0.prefix { $0 != "=" })
            }
            if !kept.isEmpty {
                shown += "?" + kept.joined(separator: "&")
            }
        } else {
            shown += pathAndQuery
        }
        return Self.redact(String(shown), secrets: secrets)
    }

    public var debugDescription: String { description }

    /// `message` with every password of the URL in it written `***`.
    func redacting(_ message: String) -> String {
        Self.redact(message, secrets: secrets)
    }

    private static func isSecret(_ parameter: Substring) -> Bool {
        ["password", "sslpassword"].contains(parameter.lowercased())
    }

    /// The passwords `text` (the URL after its scheme) holds: after the user name, and in
    /// `password=` parameters; each as written and percent-decoded.
    private static func passwords(in text: String) -> [String] {
        var found: [Substring] = []
        let authorityEnd = text.firstIndex { $0 == "/" || $0 == "?" } ?? text.endIndex
        let authority = text[..<authorityEnd]
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            found.append(authority[authority.index(after: colon)..<at])
        }
        if let questionMark = text.firstIndex(of: "?") {
            for parameter in text[text.index(after: questionMark)...].split(separator: "&") {
                let parts = parameter.split(separator: "=", maxSplits: 1)
                if parts.count == 2, isSecret(parts[0]) {
                    found.append(parts[1])
                }
            }
        }
        let secrets = found.filter { !$0.isEmpty }.flatMap { [String($0), String($0).removingPercentEncodingIfValid] }
        return Array(Set(secrets)).sorted { $0.count > $1.count }
    }

    private static func redact(_ message: String, secrets: [String]) -> String {
        secrets.reduce(message) { $0.replacing($1, with: "***") }
    }

    /// Why a text is not a PostgreSQL URL.
    public struct Invalid: Error, Hashable, Sendable, CustomStringConvertible {
        /// Why, without the URL's password.
        public var reason: String

        public var description: String { reason }
    }
}

extension String {
    /// The text with `%xx` escapes decoded, or as it is if they do not decode to UTF-8.
    fileprivate var removingPercentEncodingIfValid: String {
        var bytes: [UInt8] = []
        var utf8 = self.utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? self
    }
}
