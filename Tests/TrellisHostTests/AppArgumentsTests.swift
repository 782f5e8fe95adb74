import Foundation
import Testing

/// What the supervisor hands a host from a scene (`--data`, `--embed`) is checked before
/// the host starts anything: garbage is refused with what was expected, exit status 64.
@Suite struct AppArgumentsTests {
    func run(_ extra: [String]) throws -> (status: Int32, errors: String) {
        let p = Process()
        p.executableURL = try BuiltProducts.binary("trellis-app")
        p.arguments = ["--host", "A", "--class", "ParityLeaf", "--parent", "P", "--endpoint", "ipc:///nonexistent/x.sock",
                       "--session", "never-made"] + extra
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(arguments: [
        (["--data", "no-colon"], "--data: expected ID:NAME=VALUE"),
        (["--data", "A:no-equals"], "--data: expected ID:NAME=VALUE"),
        (["--data", "bad id:k=v"], "--data: expected ID:NAME=VALUE"),
        (["--data", "A:=v"], "--data: empty name"),
        (["--embed", "A:B:Class"], "--embed: expected PARENT:CHILD:CLASS:VIEW"),
        (["--embed", "A:B::view"], "--embed: expected PARENT:CHILD:CLASS:VIEW"),
        (["--embed", "A:B:C:v:extra"], "--embed: expected PARENT:CHILD:CLASS:VIEW"),
        // Issue 20: an actor's process children, by class.
        (["--actor-remote-child", "no-colon"], "--actor-remote-child: expected ACTOR:CLASS"),
        (["--actor-remote-child", "Middle:"], "--actor-remote-child: expected ACTOR:CLASS"),
        (["--actor-remote-child", "bad id:TapLeaf"], "--actor-remote-child: expected ACTOR:CLASS"),
        (["--actor-actor-child", "TapMiddle"], "--actor-actor-child: expected ACTOR:CLASS"),
    ])
    func garbageSceneArgumentsAreRefused(_ extra: [String], _ message: String) throws {
        let r = try run(extra)
        #expect(r.status == 64 && r.errors.contains(message), "\(r)")
    }

    /// Issue 21: the entry point the seeds app shares with every app refuses a class it
    /// was not handed, naming the ones it was.
    @Test func aClassTheAppDidNotRegisterIsRefusedWithTheKnownOnes() throws {
        let p = Process()
        p.executableURL = try BuiltProducts.binary("trellis-app")
        p.arguments = ["--host", "A", "--class", "Nope", "--parent", "P", "--endpoint", "ipc:///nonexistent/x.sock", "--session", "never-made"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 64 && errors.contains("--class: no controller class 'Nope' (known: DemoKeys, DemoTabs,"), "\(errors)")
    }

    @Test func theClassesAreListedForTheSupervisor() throws {
        let p = Process()
        p.executableURL = try BuiltProducts.binary("trellis-app")
        p.arguments = ["classes"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let names = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        p.waitUntilExit()
        #expect(p.terminationStatus == 0 && names.contains("DemoTabs") && names.contains("ParityChild"))
    }
}
