import TrellisCanvas
import TrellisLog
import TrellisViews
import TrellisWire

/// How a parent reaches a child: every call UIKit's machinery makes on a child is a
/// `Message` here. In one process the message value is handed over directly — the
/// link's same-process path, no encoding — and logged as a link would log it
/// (`via: local`); a child in another process gets the same message over its link.
extension ViewController {
    /// Hands `message` to `target` and returns its answer: nil for a plain
    /// acknowledgement, a reply for a request, a declined reply for a touch that nothing
    /// in the target's tree handled.
    @discardableResult
    func send(_ message: Message, to target: ViewController) -> Reply? {
        // Logged at hand-over, before the callback runs, so nested messages it causes
        // follow it in the log as they follow it in time. A proxy's link logs its own.
        if !(target is RemoteController) {
            window?.route(kind: message.kind.name, from: id, to: target.id, outcome: .delivered, reason: nil, detail: message.summary)
        }
        let previous = target.deliveringWindow
        target.deliveringWindow = loggingWindow
        let answer = target.receive(message, from: self)
        target.deliveringWindow = previous
        if let answer {
            window?.route(kind: "reply", from: target.id, to: id, outcome: .delivered, reason: answer.status == .ok ? nil : "\(answer.status)")
        }
        return answer
    }

    /// Hands a message that arrived over a link to this controller, from `sender` (the
    /// proxy of the controller at the other end). What a host calls; returns the answer
    /// to send back: nil for an ack, a reply for a request or a touch.
    public func handleMessage(_ message: Message, from sender: ViewController) -> Reply? {
        let previous = deliveringWindow
        deliveringWindow = sender.window
        defer { deliveringWindow = previous }
        return receive(message, from: sender)
    }

    /// Touches that arrived over a link together, in order (`Switchboard`'s batch): one
    /// answer each, as `handleMessage` gives one — nil, or declined for a touch nothing in
    /// this tree handled.
    public func handleTouches(_ inputs: [TouchInput], from sender: ViewController) -> [Reply?] {
        let previous = deliveringWindow
        deliveringWindow = sender.window
        defer { deliveringWindow = previous }
        return touchMessages(inputs).map { $0 ? nil : Reply(status: .declined) }
    }

    /// The receiving side: turns a message into the UIKit callback it stands for.
    func receive(_ message: Message, from sender: ViewController) -> Reply? {
        switch message {
        case .containment(let c):
            let other = c.parent == sender.id ? sender : nil
            switch c.phase {
            case .willMove: willMove(toParent: other)
            case .didMove: didMove(toParent: other)
            }
        case .appearance(let a):
            switch a.phase {
            case .willAppear: beginAppearanceTransition(true, animated: a.animated)
            case .willDisappear: beginAppearanceTransition(false, animated: a.animated)
            case .didAppear, .didDisappear: endAppearanceTransition()
            }
        case .traits(let t):
            applyTraits(TraitCollection(t))
        case .sizeTransition(let s):
            receiveSizeTransition(Size(width: Int(s.width), height: Int(s.height)), duration: Double(s.durationMilliseconds) / 1000)
        case .memoryWarning:
            didReceiveMemoryWarning()
        case .touch(let t):
            return touchMessage(t) ? nil : Reply(status: .declined)
        case .key(let k):
            return keyMessage(k)
        case .scroll(let s):
            return scrollMessage(s) ? nil : Reply(status: .declined, payload: Array("unhandled: nothing under the pointer scrolls that way".utf8))
        case .request(let r):
            return answer(r, from: sender)
        default:
            window?.route(kind: message.kind.name, from: sender.id, to: id, outcome: .rejected, reason: "a controller does not accept \(message.kind.name) from another controller")
            return Reply(status: .failed)
        }
        return nil
    }
}

extension ViewController {
    /// Writes a lifecycle callback to the routing log (kind `callback`, the callback in
    /// `detail`): merged across processes by time, these lines are the ordered callback
    /// log the placement-parity tests compare. Public so that a controller can put what it
    /// saw in a callback — the size an alongside block saw — in the same ordered log.
    public func logCallback(_ name: @autoclosure () -> String) {
        // Proxies stand for controllers that log their own callbacks in their own process.
        guard !(self is RemoteController), !(self is ParentProxy) else { return }
        (loggingWindow ?? deliveringWindow)?.route(kind: "callback", from: id, to: id, outcome: .event, reason: nil, detail: "\(id).\(name())")
    }
}

extension Message {
    /// A few words for the log's `detail` field.
    var summary: String? {
        switch self {
        case .appearance(let a): "\(a.phase)\(a.animated ? " animated" : "")"
        case .containment(let c): "\(c.phase) → \(c.parent.map(\.rawValue) ?? "nil")"
        case .traits(let t): "h:\(t.horizontal) v:\(t.vertical) \(t.style)"
        case .sizeTransition(let s): "\(s.width)×\(s.height)"
        case .touch(let t): "\(t.phase) \(t.x),\(t.y) pointer \(t.pointer)"
        case .key(let k): k.pressName
        case .scroll(let s): "\(s.deltaX),\(s.deltaY) at \(s.x),\(s.y)"
        case .request(let r): r.name
        case .placement(let p): "frame \(p.frame.x),\(p.frame.y) \(p.frame.width)×\(p.frame.height) z \(p.z)\(p.visible ? "" : " hidden")"
        default: nil
        }
    }
}
