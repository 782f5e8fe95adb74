import ArgumentParser
import Testing
import TrellisControllers
@testable import TrellisApp

/// Issue 21: a user's app binary is its classes handed to `TrellisApp.main`; the
/// subcommands the supervisor and the tests need come from the library, whatever the
/// app registers.
@Suite @MainActor struct TrellisAppTests {
    final class Counter: ViewController {}

    init() {
        TrellisApp.install { registry in
            registry.register("Counter") { id in Counter(id: id) }
            registry.register("Log") { id in ViewController(id: id) }
        }
    }

    @Test func classesListsWhatTheAppRegistered() {
        #expect(ClassesCommand.names() == ["Counter", "Log"])
    }

    @Test func hostIsTheDefaultSubcommand() throws {
        let command = try AppCommand.parseAsRoot([
            "--host", "C", "--class", "Counter", "--parent", "Root", "--endpoint", "ipc:///tmp/x.sock", "--session", "s",
        ])
        let host = try #require(command as? HostCommand)
        #expect(host.controllerID == "C" && host.className == "Counter")
    }

    @Test func classesIsASubcommand() throws {
        #expect(try AppCommand.parseAsRoot(["classes"]) is ClassesCommand)
    }

    @Test(arguments: [
        (["--host", "bad id"], "--host: 'bad id' is not a controller id"),
        (["--parent", "bad id"], "--parent: 'bad id' is not a controller id"),
        (["--session", "../up"], "--session: '../up' is not a valid session name"),
    ])
    func badHostArgumentsAreRefusedBeforeAnythingStarts(_ change: [String], _ message: String) {
        var arguments = ["--host", "C", "--class", "Counter", "--parent", "Root", "--endpoint", "ipc:///tmp/x.sock", "--session", "s"]
        arguments[arguments.firstIndex(of: change[0])! + 1] = change[1]
        #expect {
            _ = try AppCommand.parseAsRoot(arguments)
        } throws: { error in
            AppCommand.message(for: error).contains(message)
        }
    }
}
