import ArgumentParser
import Foundation
import TrellisCanvas
import TrellisClient
import TrellisLog
import TrellisSession

/// `--session` and `--run-root`, shared by every command that attaches to a session.
struct SessionOptions: ParsableArguments {
    @Option(help: "The session (default: the newest).") var session: String?
    @Option(help: "Where run directories live (default: $TRELLIS_RUN_ROOT, $XDG_RUNTIME_DIR/trellis, /tmp/trellis-UID).")
    var runRoot: String?

    var root: String { runRoot ?? RunDirectory.root }

    func validate() throws {
        if let session, !RunDirectory.isValidSession(session) {
            throw ValidationError("--session: '\(session)' is not a session name (letters, digits, . _ -)")
        }
    }

    func runDirectory() throws -> RunDirectory {
        do { return try RunDirectory.find(session: session, root: root) } catch { throw CLIError("\(error)") }
    }

    /// Attaches (waiting up to `timeout` for the session to exist and answer), runs
    /// `body`, detaches — also when `body` throws.
    func withClient<T: Sendable>(
        timeout: Duration = .seconds(5), _ body: (SessionClient) async throws -> T
    ) async throws -> T {
        let client: SessionClient
        do { client = try await SessionClient.attach(session: session, root: root, timeout: timeout) } catch {
            throw CLIError("\(error)")
        }
        do {
            let result = try await body(client)
            await client.close()
            return result
        } catch let error as ClientError {
            await client.close()
            if case .unhandled = error {
                FileHandle.standardError.write(Data("trellis: \(error)\n".utf8))
                throw ExitCode(Self.unhandledStatus)
            }
            throw CLIError("\(error)")
        } catch {
            await client.close()
            throw CLIError("\(error)")
        }
    }

    /// The exit status of `tap`, `drag` and `key` when the input reached the tree and
    /// nothing handled it: not a failure (1), and a script may well expect it.
    static let unhandledStatus: Int32 = 2
}

/// An error for people: printed as is, exit status 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ text: String) { description = text }
}

/// `X,Y` on the command line.
struct PointArgument: ExpressibleByArgument {
    let point: Point
    init?(argument: String) {
        let parts = argument.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], x >= 0, y >= 0 else { return nil }
        point = Point(x: x, y: y)
    }
}

/// `COLUMNSxROWS` on the command line.
struct SizeArgument: ExpressibleByArgument {
    let size: Size
    init?(argument: String) {
        let parts = argument.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, Size(width: parts[0], height: parts[1]).isScreenSize else { return nil }
        size = Size(width: parts[0], height: parts[1])
    }
}
