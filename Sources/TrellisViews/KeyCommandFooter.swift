import TrellisCanvas
import TrellisWire

/// One row listing the key commands active now — key, then title — as Textual's footer
/// does. The window keeps every footer in its tree up to date as focus moves and keys
/// are handled (`Window.refreshKeyCommandFooters`); commands that do not fit are cut at
/// the right edge, whole.
open class KeyCommandFooter: View {
    public var commands: [KeyCommand.Summary] = [] {
        didSet { if commands != oldValue { setNeedsDisplay() } }
    }

    public required init(frame: Rect = .zero) { super.init(frame: frame) }

    open override var intrinsicContentSize: Size? { Size(width: Self.columns(of: commands), height: 1) }

    /// `key title` items two columns apart.
    static func columns(of commands: [KeyCommand.Summary]) -> Int {
        commands.enumerated().reduce(0) { sum, item in
            sum + (item.offset == 0 ? 0 : 2) + CharacterWidth.columns(of: item.element.key) + 1 + CharacterWidth.columns(of: item.element.title)
        }
    }

    open override func draw(in surface: inout Surface) {
        super.draw(in: &surface)
        guard bounds.height > 0 else { return }
        let plain = Style(foreground: foregroundColor, background: backgroundColor ?? .default)
        var x = bounds.minX
        for (i, command) in commands.enumerated() {
            let width = CharacterWidth.columns(of: command.key) + 1 + CharacterWidth.columns(of: command.title)
            let start = x + (i == 0 ? 0 : 2)
            guard start + width <= bounds.maxX else { break }
            var keyStyle = plain
            keyStyle.attributes = command.isEnabled ? [.reverse, .bold] : [.dim]
            var titleStyle = plain
            if !command.isEnabled { titleStyle.attributes = [.dim] }
            x = start + surface.put(command.key, at: Point(x: start, y: bounds.minY), style: keyStyle)
            x += surface.put(" " + command.title, at: Point(x: x, y: bounds.minY), style: titleStyle)
        }
    }
}
