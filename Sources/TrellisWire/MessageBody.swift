// The body encoding of every message kind (docs/PROTOCOL.md, "Bodies").
// Encoders trust the values they are given (they come from typed Swift code);
// decoders trust nothing.

extension Message {
    /// Encodes the body frame.
    public func encodeBody() -> [UInt8] {
        var bytes: [UInt8] = []
        encodeBody(into: &bytes)
        return bytes
    }

    /// Replaces `bytes` with the body frame, reusing its storage (a link encodes
    /// every message it sends into the same buffer).
    public func encodeBody(into bytes: inout [UInt8]) {
        var w = ByteWriter(reusing: &bytes, capacity: 32)
        defer { bytes = w.bytes }
        switch self {
        case .ack, .heartbeat, .memoryWarning:
            break
        case .hello(let h):
            w.u32(h.pid); w.u32(h.heartbeatMilliseconds)
        case .error(let e):
            let text = Array(e.text.utf8.prefix(WireLimits.maxErrorText))
            w.u16(e.code.rawValue); w.u16(UInt16(text.count)); w.raw(text)
        case .touch(let t):
            w.u8(t.phase.rawValue); w.u8(t.modifiers.rawValue); w.u16(t.tapCount)
            w.u32(t.pointer); w.i32(t.x); w.i32(t.y); w.u64(t.timestamp)
        case .scroll(let s):
            w.i32(s.deltaX); w.i32(s.deltaY); w.u8(s.modifiers.rawValue); w.u8(0); w.u16(0)
            w.i32(s.x); w.i32(s.y); w.u64(s.timestamp)
        case .key(let k):
            let text = Array(k.text.utf8)
            let limit = WireLimits.maxKeyText(pasting: k.modifiers.contains(.paste))
            precondition(text.count <= limit, "key text over \(limit) bytes")
            w.u16(k.special.rawValue); w.u8(k.modifiers.rawValue); w.u8(k.phase.rawValue); w.u64(k.timestamp)
            w.u16(UInt16(text.count)); w.raw(text)
        case .traits(let t):
            w.u8(t.horizontal.rawValue); w.u8(t.vertical.rawValue); w.u8(t.style.rawValue)
            w.u8(t.direction.rawValue); w.u8(t.colorDepth.rawValue); w.u8(t.contentSize.rawValue)
        case .appearance(let a):
            w.u8(a.phase.rawValue); w.bool(a.animated)
        case .containment(let c):
            w.u8(c.phase.rawValue); w.shortID(c.parent)
        case .sizeTransition(let s):
            w.u32(s.width); w.u32(s.height); w.u32(s.durationMilliseconds)
        case .frame(let f):
            w.bytes.reserveCapacity(11 + ControllerID.maxLength + f.damage.reduce(0) { $0 + 8 + $1.cells.count * 14 })
            w.shortID(f.layer); w.u32(f.number); w.u16(f.width); w.u16(f.height); w.u16(UInt16(f.damage.count))
            for d in f.damage {
                precondition(d.cells.count == d.rect.area, "damage cells do not fill their rect")
                w.u16(UInt16(d.rect.x)); w.u16(UInt16(d.rect.y)); w.u16(d.rect.width); w.u16(d.rect.height)
                for c in d.cells {
                    w.u32(c.scalar); w.u32(c.foreground.wireValue); w.u32(c.background.wireValue)
                    w.u16(c.attributes.rawValue)
                }
            }
        case .placement(let p):
            w.shortID(p.surface); w.rect(p.frame); w.i32(p.z); w.rect(p.clip); w.bool(p.visible)
        case .animation(let a):
            w.shortID(a.surface); w.rect(a.from); w.rect(a.to)
            w.u32(a.durationMilliseconds); w.u32(a.delayMilliseconds); w.u8(a.curve.rawValue)
        case .request(let r):
            let name = r.name.utf8
            precondition(!name.isEmpty && name.count <= WireLimits.maxRequestName, "request name must be 1…64 bytes")
            precondition(r.payload.count <= WireLimits.maxPayload, "request payload over 64 KiB")
            w.u8(UInt8(name.count)); w.raw(name); w.u32(UInt32(r.payload.count)); w.raw(r.payload)
        case .reply(let r):
            precondition(r.payload.count <= WireLimits.maxPayload, "reply payload over 64 KiB")
            w.u8(r.status.rawValue); w.u32(UInt32(r.payload.count)); w.raw(r.payload)
        }
    }

    /// Decodes a body of a known kind; the size bound has already been checked.
    public static func decodeBody(kind: MessageKind, _ body: [UInt8]) throws(WireError) -> Message {
        try body.withUnsafeBytes { bytes in Result { () throws(WireError) in try decodeBody(kind: kind, bytes) } }.get()
    }

    /// Decodes a body where it lies (a receive buffer); the message holds no
    /// reference to `body` afterwards.
    public static func decodeBody(kind: MessageKind, _ body: UnsafeRawBufferPointer) throws(WireError) -> Message {
        do {
            var r = ByteReader(body, kind: kind)
            let message = try decode(kind, &r)
            try r.finish()
            return message
        } catch let e as WireError {
            throw e
        } catch {
            throw WireError(.invalidBody, "\(kind.name): \(error)")
        }
    }

    private static func decode(_ kind: MessageKind, _ r: inout ByteReader) throws -> Message {
        switch kind {
        case .ack: return .ack
        case .heartbeat: return .heartbeat
        case .memoryWarning: return .memoryWarning
        case .hello:
            return .hello(Hello(pid: try r.u32("pid"), heartbeatMilliseconds: try r.u32("heartbeat")))
        case .error:
            let code = try r.enumeration(WireErrorCode.self, "error code")
            let n = Int(try r.u16("text length"))
            return .error(WireError(code, try r.utf8(length: n, max: WireLimits.maxErrorText, "error text")))
        case .touch:
            let phase = try r.enumeration(TouchInput.Phase.self, "touch phase")
            let modifiers = try modifiers(&r)
            return .touch(
                TouchInput(
                    phase: phase, modifiers: modifiers, tapCount: try r.u16("tap count"),
                    pointer: try r.u32("pointer"), x: try r.i32("x"), y: try r.i32("y"),
                    timestamp: try r.u64("timestamp")))
        case .scroll:
            let dx = try r.i32("delta x"), dy = try r.i32("delta y")
            let modifiers = try modifiers(&r)
            guard try r.u8("reserved") == 0, try r.u16("reserved") == 0 else { throw r.invalid("reserved bytes are not 0") }
            return .scroll(ScrollInput(
                deltaX: dx, deltaY: dy, modifiers: modifiers, x: try r.i32("x"), y: try r.i32("y"),
                timestamp: try r.u64("timestamp")))
        case .key:
            let special = try r.enumeration(KeyPress.Special.self, "special key")
            let modifiers = try modifiers(&r)
            let phase = try r.enumeration(KeyPress.Phase.self, "key phase")
            let timestamp = try r.u64("timestamp")
            let n = Int(try r.u16("text length"))
            let text = try r.utf8(length: n, max: WireLimits.maxKeyText(pasting: modifiers.contains(.paste)), "key text")
            return .key(KeyPress(special: special, modifiers: modifiers, text: text, timestamp: timestamp, phase: phase))
        case .traits:
            return .traits(
                Traits(
                    horizontal: try r.enumeration(Traits.SizeClass.self, "horizontal size class"),
                    vertical: try r.enumeration(Traits.SizeClass.self, "vertical size class"),
                    style: try r.enumeration(Traits.Style.self, "style"),
                    direction: try r.enumeration(Traits.Direction.self, "layout direction"),
                    colorDepth: try r.enumeration(Traits.ColorDepth.self, "colour depth"),
                    contentSize: try r.enumeration(Traits.ContentSize.self, "content size")))
        case .appearance:
            return .appearance(
                Appearance(try r.enumeration(Appearance.Phase.self, "appearance phase"), animated: try r.bool("animated")))
        case .containment:
            return .containment(
                Containment(try r.enumeration(Containment.Phase.self, "containment phase"), parent: try r.shortID("parent")))
        case .sizeTransition:
            return .sizeTransition(
                SizeTransition(width: try r.u32("width"), height: try r.u32("height"), durationMilliseconds: try r.u32("duration")))
        case .frame:
            return .frame(try frame(&r))
        case .placement:
            guard let surface = try r.shortID("surface") else { throw r.invalid("placement names no surface") }
            return .placement(
                Placement(
                    surface: surface, frame: try r.rect("frame"), z: try r.i32("z"), clip: try r.rect("clip"),
                    visible: try r.bool("visible")))
        case .animation:
            guard let surface = try r.shortID("surface") else { throw r.invalid("animation names no surface") }
            return .animation(
                Animation(
                    surface: surface, from: try r.rect("from"), to: try r.rect("to"),
                    durationMilliseconds: try r.u32("duration"), delayMilliseconds: try r.u32("delay"),
                    curve: try r.enumeration(Animation.Curve.self, "curve")))
        case .request:
            let n = Int(try r.u8("name length"))
            guard n > 0 else { throw r.invalid("request name is empty") }
            let name = try r.utf8(length: n, max: WireLimits.maxRequestName, "request name")
            return .request(Request(name: name, payload: try payload(&r)))
        case .reply:
            let status = try r.enumeration(Reply.Status.self, "reply status")
            return .reply(Reply(status: status, payload: try payload(&r)))
        }
    }

    private static func modifiers(_ r: inout ByteReader) throws -> KeyModifiers {
        let m = KeyModifiers(rawValue: try r.u8("modifiers"))
        guard KeyModifiers.known.isSuperset(of: m) else { throw r.invalid("unknown modifier bits \(m.rawValue)") }
        return m
    }

    private static func payload(_ r: inout ByteReader) throws -> [UInt8] {
        let n = Int(try r.u32("payload length"))
        guard n <= WireLimits.maxPayload else { throw r.invalid("payload is \(n) bytes, more than \(WireLimits.maxPayload)") }
        return try r.raw(n, "payload")
    }

    private static func frame(_ r: inout ByteReader) throws -> FrameUpdate {
        let layer = try r.shortID("layer")
        let number = try r.u32("frame number")
        let width = try r.u16("width")
        let height = try r.u16("height")
        let count = Int(try r.u16("damage count"))
        guard count <= WireLimits.maxDamageRects else { throw r.invalid("\(count) damage rects, more than \(WireLimits.maxDamageRects)") }
        var damage: [FrameUpdate.Damage] = []
        damage.reserveCapacity(count)
        for _ in 0..<count {
            let x = try r.u16("damage x"), y = try r.u16("damage y")
            let w = try r.u16("damage width"), h = try r.u16("damage height")
            guard Int(x) + Int(w) <= Int(width), Int(y) + Int(h) <= Int(height) else {
                throw r.invalid("damage \(x),\(y) \(w)×\(h) outside the \(width)×\(height) surface")
            }
            let area = Int(w) * Int(h)
            guard r.remaining >= area * 14 else {
                throw WireError(.truncatedBody, "frame body ends inside the cells of damage \(x),\(y) \(w)×\(h)")
            }
            var cells: [Cell] = []
            cells.reserveCapacity(area)
            for _ in 0..<area {
                let scalar = try r.u32("cell scalar")
                guard scalar == Cell.continuation || Unicode.Scalar(scalar) != nil else {
                    throw r.invalid("cell scalar \(scalar) is not a Unicode scalar")
                }
                let fg = try CellColor(wireValue: try r.u32("foreground"), &r)
                let bg = try CellColor(wireValue: try r.u32("background"), &r)
                let attributes = CellAttributes(rawValue: try r.u16("attributes"))
                guard CellAttributes.known.isSuperset(of: attributes) else {
                    throw r.invalid("unknown attribute bits \(attributes.rawValue)")
                }
                cells.append(Cell(scalar: scalar, foreground: fg, background: bg, attributes: attributes))
            }
            damage.append(.init(rect: CellRect(x: Int32(x), y: Int32(y), width: w, height: h), cells: cells))
        }
        return FrameUpdate(layer: layer, number: number, width: width, height: height, damage: damage)
    }
}

extension CellColor {
    /// Mode in the high byte: 0 default, 1 palette index, 2 RGB.
    var wireValue: UInt32 {
        switch self {
        case .default: 0
        case .indexed(let i): 1 << 24 | UInt32(i)
        case .rgb(let r, let g, let b): 2 << 24 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
        }
    }

    fileprivate init(wireValue v: UInt32, _ r: inout ByteReader) throws {
        switch v >> 24 {
        case 0 where v == 0: self = .default
        case 1 where v & 0x00FF_FF00 == 0: self = .indexed(UInt8(v & 0xFF))
        case 2: self = .rgb(UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF))
        default: throw r.invalid("colour 0x\(String(v, radix: 16)) has an unknown mode")
        }
    }
}
