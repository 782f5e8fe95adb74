import TrellisCanvas
import TrellisViews
import TrellisWire

/// One button of an alert (UIKit's `UIAlertAction`).
public final class AlertAction {
    public enum Style: String, Sendable {
        /// An ordinary choice.
        case `default`
        /// Leaves things as they were; Escape chooses it. An alert has at most one.
        case cancel
        /// Changes or deletes data; drawn in red.
        case destructive
    }

    public let title: String
    public let style: Style
    /// False: the button is drawn dim and cannot be chosen.
    public var isEnabled = true { didSet { button?.isEnabled = isEnabled } }
    let handler: ((AlertAction) -> Void)?
    weak var button: Button?

    public init(title: String, style: Style = .default, handler: ((AlertAction) -> Void)? = nil) {
        self.title = title
        self.style = style
        self.handler = handler
    }
}

/// A title, a message and a row of actions, centred over the window as a dialog (UIKit's
/// `UIAlertController` in its alert style; docs/LIFECYCLE.md, "Alerts").
///
/// Presented with `present(_:animated:completion:)` as a form sheet sized to its content;
/// what is beneath stays shown, and the alert takes the window's touches and keys. An
/// action is chosen by a click on its button, or from the keyboard: Tab, Shift-Tab and the
/// arrow keys move focus between the buttons, Return or Space chooses the focused one
/// (with none focused, Return chooses `preferredAction`), Escape chooses the cancel action.
/// Choosing dismisses the alert, then runs the action's handler, as UIKit does.
open class AlertController: ViewController {
    public let message: String?
    public private(set) var actions: [AlertAction] = []
    /// The action Return chooses with no button focused, focused when the alert appears,
    /// and drawn bold and reversed when focused (UIKit's `preferredAction`); it must be one
    /// of `actions`.
    public var preferredAction: AlertAction? {
        didSet {
            if let p = preferredAction {
                precondition(actions.contains { $0 === p }, "\(id): the preferred action '\(p.title)' must be added to the alert first (UIKit raises too).")
            }
        }
    }
    /// Whether a dismissal by an action slides (it is instant by default, as UIKit's alert fades).
    public var dismissesAnimated = false

    let titleLabel = Label()
    let messageLabel = Label()
    private(set) var buttons: [Button] = []

    /// The widest the alert grows, in columns, before its message wraps.
    public static let maximumWidth = 50

    public init(title: String?, message: String?, id: ControllerID? = nil) {
        self.message = message
        super.init(id: id)
        self.title = title
        modalPresentationStyle = .formSheet
        modalTransitionStyle = .crossDissolve
    }

    /// Adds a button. A second cancel action stops, as UIKit raises ("UIAlertController can
    /// only have one action with a style of UIAlertActionStyleCancel").
    public func addAction(_ action: AlertAction) {
        precondition(
            action.style != .cancel || !actions.contains { $0.style == .cancel },
            "\(id): adding '\(action.title)', a second cancel action, is not supported "
                + "(UIKit: \"UIAlertController can only have one action with a style of UIAlertActionStyleCancel\").")
        actions.append(action)
        if isViewLoaded { rebuildButtons() }
    }

    /// The buttons left to right: with two actions the cancel one goes first, as UIKit lays
    /// out two side by side; with more it goes last, as UIKit stacks them.
    var orderedActions: [AlertAction] {
        guard let cancel = actions.first(where: { $0.style == .cancel }) else { return actions }
        let others = actions.filter { $0 !== cancel }
        return actions.count == 2 ? [cancel] + others : others + [cancel]
    }

    open override func loadView() {
        let root = AlertView()
        root.alert = self
        root.border = .rounded
        root.identifier = "alert"
        titleLabel.identifier = "alertTitle"
        titleLabel.alignment = .center
        titleLabel.attributes = [.bold]
        titleLabel.text = title ?? ""
        messageLabel.identifier = "alertMessage"
        messageLabel.alignment = .center
        messageLabel.numberOfLines = 0
        messageLabel.lineBreakMode = .byWordWrapping
        messageLabel.text = message ?? ""
        root.addSubview(titleLabel)
        root.addSubview(messageLabel)
        view = root
        rebuildButtons()
    }

    private func rebuildButtons() {
        for b in buttons { b.removeFromSuperview() }
        buttons = orderedActions.enumerated().map { i, action in
            let b = Button(title: action.title)
            b.identifier = "alertAction\(i)"
            b.isEnabled = action.isEnabled
            if action.style == .destructive { b.foregroundColor = .indexed(9) }
            b.addAction { [weak self, weak action] _ in
                guard let self, let action else { return }
                self.choose(action)
            }
            action.button = b
            view.addSubview(b)
            return b
        }
        preferredContentSize = contentSize(fittingWidth: Self.maximumWidth)
        view.setNeedsLayout()
    }

    /// What the alert needs: the widest of its title, its buttons and its message (wrapped
    /// to `width`), inside a border and a column of margin each side.
    func contentSize(fittingWidth width: Int) -> Size {
        let inner = width - 4
        let buttonsWidth = buttons.reduce(0) { $0 + CharacterWidth.columns(of: $1.title) + 2 } + max(0, buttons.count - 1)
        let messageLines = (message ?? "").isEmpty ? [] : LineBreaking.lines(of: message!, width: max(1, inner), mode: .byWordWrapping)
        let widest = max(CharacterWidth.columns(of: title ?? ""), buttonsWidth, messageLines.map { CharacterWidth.columns(of: $0) }.max() ?? 0)
        // The title, the message, a blank row, the buttons.
        let rows = ((title ?? "").isEmpty ? 0 : 1) + messageLines.count + 2
        return Size(width: min(width, max(20, widest + 4)), height: rows + 2)
    }

    /// Places the title, the message and the buttons inside the border.
    func layOut(in bounds: Rect) {
        let inner = bounds.inset(by: EdgeInsets(all: 1))
        guard !inner.isEmpty else { return }
        var y = inner.minY
        let hasTitle = !(title ?? "").isEmpty
        titleLabel.frame = Rect(x: inner.minX + 1, y: y, width: max(0, inner.width - 2), height: hasTitle ? 1 : 0)
        if hasTitle { y += 1 }
        let lines = (message ?? "").isEmpty ? 0 : LineBreaking.lines(of: message!, width: max(1, inner.width - 2), mode: .byWordWrapping).count
        let messageHeight = max(0, min(lines, inner.maxY - 2 - y))
        messageLabel.frame = Rect(x: inner.minX + 1, y: y, width: max(0, inner.width - 2), height: messageHeight)
        y = inner.maxY - 1
        let widths = buttons.map { CharacterWidth.columns(of: $0.title) + 2 }
        let total = widths.reduce(0, +) + max(0, buttons.count - 1)
        var x = inner.minX + max(0, (inner.width - total) / 2)
        for (b, w) in zip(buttons, widths) {
            b.frame = Rect(x: x, y: y, width: w, height: 1)
            b.attributesForPreferred(orderedActions.first { $0.button === b } === preferredAction)
            x += w + 1
        }
    }

    open override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        let first = preferredAction?.button ?? orderedActions.first { $0.style != .cancel && $0.isEnabled }?.button ?? buttons.first
        if let first, first.isEnabled { _ = first.becomeFirstResponder() }
    }

    /// Chooses `action`: the alert is dismissed, then the handler runs (UIKit's order).
    public func choose(_ action: AlertAction) {
        guard action.isEnabled, actions.contains(where: { $0 === action }), !isBeingDismissed else { return }
        logCallback("choose(\(action.title))")
        dismiss(animated: dismissesAnimated) { action.handler?(action) }
    }

    open override var keyCommands: [KeyCommand] {
        var commands: [KeyCommand] = []
        if let cancel = actions.first(where: { $0.style == .cancel }) {
            commands.append(KeyCommand(Key(.escape), title: cancel.title, isEnabled: cancel.isEnabled) { [weak self] in self?.choose(cancel) })
        }
        if let preferred = preferredAction ?? actions.first(where: { $0.style != .cancel }) {
            commands.append(KeyCommand(Key(.enter), title: preferred.title, isEnabled: preferred.isEnabled) { [weak self] in self?.choose(preferred) })
        }
        for (special, forward) in [(KeyPress.Special.right, true), (.down, true), (.left, false), (.up, false)] {
            commands.append(KeyCommand(Key(special), title: forward ? "Next" : "Previous", isDiscoverable: false) { [weak self] in
                self?.moveFocus(forward: forward)
            })
        }
        return commands
    }

    /// The arrow keys: focus to the next (previous) enabled button, wrapping.
    private func moveFocus(forward: Bool) {
        let enabled = buttons.filter(\.isEnabled)
        guard !enabled.isEmpty else { return }
        let current = enabled.firstIndex { $0.isFocused }
        let next = current.map { (forward ? $0 + 1 : $0 + enabled.count - 1) % enabled.count } ?? (forward ? 0 : enabled.count - 1)
        _ = enabled[next].becomeFirstResponder()
    }
}

/// The alert's root view: lays its parts out itself.
final class AlertView: View {
    weak var alert: AlertController?

    override func layoutSubviews() {
        super.layoutSubviews()
        alert?.layOut(in: bounds)
    }
}

extension Button {
    fileprivate func attributesForPreferred(_ preferred: Bool) {
        focusedAttributes = preferred ? [.bold, .reverse] : [.reverse]
    }
}
