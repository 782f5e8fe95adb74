import Foundation
import TrellisTransport
import TrellisWire

/// Writes the seeds the codec makes — every kind of message, alone and as a lane's
/// stream, each control request, and a process's keys — into `directory/wire`,
/// `directory/lane`, `directory/control` and `directory/keys`, so that the corpus starts
/// from valid input and follows the codec when it changes.
func writeSeeds(to directory: URL) throws {
    let fm = FileManager.default
    func write(_ target: String, _ name: String, _ bytes: [UInt8]) throws {
        let dir = directory.appendingPathComponent(target)
        try fm.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(bytes).write(to: dir.appendingPathComponent(name))
    }
    for (name, message) in seedMessages {
        let frames = WireCodec.encode(
            Envelope(sequence: 3, trace: 0x55, correlation: 2, source: "DemoTabs", target: "seed.001:a", flags: [.ackRequested], message: message))
        try write("wire", name, frames[1] + frames[2] + frames[3])
    }
    // A lane's stream: each message alone, and all of them back to back.
    var stream: [UInt8] = []
    for (i, (name, message)) in seedMessages.enumerated() {
        let bytes = LaneFraming.encode(
            Envelope(sequence: UInt64(i + 1), trace: 0x55, correlation: 0, source: "seed.001:a", target: "DemoTabs", flags: [], message: message))
        try write("lane", name, bytes)
        stream += bytes
    }
    try write("lane", "stream", stream)
    for (name, message) in seedControl {
        guard let kind = controlKinds.firstIndex(where: { $0.kind == message.kind }) else {
            preconditionFailure("\(message.kind.name) is not a control kind")
        }
        try write("control", name, [UInt8(kind)] + message.encodeBody())
    }
    // What a supervisor hands a host: its pair alone, and with every kind of line.
    let pair = { () throws -> CurveKeyPair in try CurveKeyPair.generate() }
    let own = try pair(), parent = try pair(), child = try pair(), actor = try pair(), grandchild = try pair()
    try write("keys", "pair", Array(ProcessKeys(own: own, parent: nil, compositor: nil, children: [:]).encoded.utf8))
    try write("keys", "every-line", Array(ProcessKeys(
        own: own, parent: parent.publicKey, compositor: parent.publicKey, children: [child.publicKey: "Leaf"],
        actors: ["Middle": actor], actorChildren: ["Middle": [grandchild.publicKey: "Deep"]]).encoded.utf8))
}

private let cells = [
    Cell(scalar: 0x41),
    Cell(scalar: 0x65E5, foreground: .indexed(3), background: .rgb(1, 2, 3), attributes: [.bold, .underline]),
    Cell(scalar: Cell.continuation, foreground: .indexed(3), background: .rgb(1, 2, 3)),
    Cell(scalar: 0x20, attributes: .reverse),
]

private let seedMessages: [(String, Message)] = [
    ("hello", .hello(Hello(pid: 4242, heartbeatMilliseconds: 500))),
    ("ack", .ack),
    ("error", .error(WireError(.unknownTarget, "target x is not served here"))),
    ("heartbeat", .heartbeat),
    ("touch", .touch(TouchInput(phase: .moved, modifiers: [.shift], tapCount: 2, pointer: 1, x: -3, y: 41, timestamp: 99))),
    ("key-text", .key(KeyPress(modifiers: [.alt], text: "日本語", timestamp: 12))),
    ("key-special", .key(KeyPress(special: .f12, modifiers: [.control], timestamp: 12))),
    // Press phases from the kitty keyboard protocol (issue 22).
    ("key-repeat", .key(KeyPress(special: .f12, modifiers: [.control], timestamp: 12, phase: .repeated))),
    ("key-release", .key(KeyPress(modifiers: [.alt], text: "日本語", timestamp: 12, phase: .ended))),
    ("key-paste-long", .key(KeyPress(modifiers: .paste, text: String(repeating: "貼り付け", count: 600)))),
    ("scroll", .scroll(ScrollInput(deltaX: 0, deltaY: -2, modifiers: [.control], x: 7, y: -1, timestamp: 5))),
    ("traits", .traits(Traits(horizontal: .compact, vertical: .regular, style: .dark, direction: .rightToLeft, colorDepth: .ansi256, contentSize: .large))),
    ("appearance", .appearance(Appearance(.willDisappear, animated: true))),
    ("containment", .containment(Containment(.willMove, parent: "root"))),
    ("containment-removed", .containment(Containment(.didMove, parent: nil))),
    ("size", .sizeTransition(SizeTransition(width: 120, height: 40, durationMilliseconds: 250))),
    ("memory-warning", .memoryWarning),
    ("frame", .frame(FrameUpdate(number: 9, width: 4, height: 3, damage: [
        .init(rect: CellRect(x: 0, y: 0, width: 2, height: 2), cells: cells),
        .init(rect: CellRect(x: 3, y: 2, width: 1, height: 1), cells: [Cell(scalar: 0x1F600)]),
    ]))),
    ("frame-empty", .frame(FrameUpdate(number: 1, width: 80, height: 24, damage: []))),
    // A layer an in-process child was lifted into for the compositor to move (issue 20).
    ("frame-layer", .frame(FrameUpdate(layer: "seed.003.card", number: 2, width: 2, height: 1, damage: [
        .init(rect: CellRect(x: 0, y: 0, width: 2, height: 1), cells: [Cell(scalar: 0x41), Cell(scalar: 0x42)]),
    ]))),
    ("placement", .placement(Placement(surface: "seed.000", frame: CellRect(x: 2, y: -1, width: 30, height: 10), z: 3, clip: CellRect(x: 0, y: 0, width: 30, height: 9), visible: true))),
    ("animation", .animation(Animation(surface: "seed.000", from: CellRect(x: 0, y: 0, width: 5, height: 5), to: CellRect(x: 10, y: 0, width: 5, height: 5), durationMilliseconds: 300, delayMilliseconds: 20, curve: .easeOut))),
    ("request", .request(Request(name: "describe", payload: Array("{}".utf8)))),
    ("reply", .reply(Reply(status: .declined, payload: Array("no".utf8)))),
]

private let seedControl: [(String, Message)] = [
    ("touch-began", .touch(TouchInput(phase: .began, x: 3, y: 4, timestamp: 1))),
    ("touch-ended", .touch(TouchInput(phase: .ended, x: 3, y: 4, timestamp: 2))),
    ("key-text", .key(KeyPress(text: "q"))),
    ("key-enter", .key(KeyPress(special: .enter))),
    ("key-paste", .key(KeyPress(modifiers: .paste, text: "pasted\ntext"))),
    ("scroll", .scroll(ScrollInput(deltaY: 1, x: 3, y: 4, timestamp: 3))),
    ("request-keys", .request(Request(name: "keys"))),
    ("size", .sizeTransition(SizeTransition(width: 100, height: 30))),
    ("request-screen", .request(Request(name: "screen"))),
    ("request-cells", .request(Request(name: "cells"))),
    ("request-tree", .request(Request(name: "tree"))),
    ("request-await-text", .request(Request(name: "await-text", payload: Array("000 circle\u{0}next".utf8)))),
    ("request-disappear", .request(Request(name: "disappear"))),
    ("request-unknown", .request(Request(name: "frobnicate", payload: [1, 2, 3]))),
]
