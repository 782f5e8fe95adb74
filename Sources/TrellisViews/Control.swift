import TrellisWire
import TrellisCanvas
/// A view that turns touches into actions (UIKit's `UIControl`): handlers registered for
/// an event run, in registration order, when it happens.
open class Control: View {
    public enum Event: Sendable, Hashable {
        case touchUpInside, valueChanged
        /// A text field's text changed by editing (typing, deleting, pasting); not when
        /// code sets `text`, as in UIKit.
        case editingChanged
        /// Return in a text field; a focused button's Enter or Space.
        case primaryActionTriggered
        /// A text field gained / lost focus.
        case editingDidBegin, editingDidEnd
    }

    private var actions: [(Event, (Control) -> Void)] = []
    public var isEnabled = true { didSet { setNeedsDisplay() } }
    /// True between a touch beginning on the control and ending or leaving it.
    public private(set) var isHighlighted = false { didSet { if isHighlighted != oldValue { setNeedsDisplay() } } }

    public required init(frame: Rect = .zero) { super.init(frame: frame) }

    /// Target–action, Swift style: the closure captures its target.
    public func addAction(for event: Event = .touchUpInside, _ action: @escaping (Control) -> Void) {
        actions.append((event, action))
    }

    public func sendActions(for event: Event) {
        for (e, action) in actions where e == event { action(self) }
    }

    // A control consumes its touches: they do not travel further up the chain.
    open override func touchesBegan(_ touches: Set<Touch>) {
        guard isEnabled else { return super.touchesBegan(touches) }
        isHighlighted = true
    }

    open override func touchesMoved(_ touches: Set<Touch>) {
        guard isEnabled, let t = touches.first else { return super.touchesMoved(touches) }
        isHighlighted = bounds.contains(t.location(in: self))
    }

    open override func touchesEnded(_ touches: Set<Touch>) {
        guard isEnabled, let t = touches.first else { return super.touchesEnded(touches) }
        isHighlighted = false
        if bounds.contains(t.location(in: self)) { sendActions(for: .touchUpInside) }
    }

    open override func touchesCancelled(_ touches: Set<Touch>) {
        guard isEnabled else { return super.touchesCancelled(touches) }
        isHighlighted = false
    }
}
