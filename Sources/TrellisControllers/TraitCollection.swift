import TrellisCanvas
import TrellisWire

/// The environment a controller draws for (UIKit's `UITraitCollection`): size classes,
/// light/dark, layout direction, the terminal's colour depth, the content size category.
///
/// A field left `.unspecified` in an override does not override (UIKit's merge rule).
public struct TraitCollection: Hashable, Sendable, CustomStringConvertible {
    public typealias SizeClass = Traits.SizeClass
    public typealias Style = Traits.Style
    public typealias Direction = Traits.Direction
    public typealias ColorDepth = Traits.ColorDepth
    public typealias ContentSize = Traits.ContentSize

    public var horizontalSizeClass: SizeClass
    public var verticalSizeClass: SizeClass
    public var userInterfaceStyle: Style
    public var layoutDirection: Direction
    public var colorDepth: ColorDepth
    public var contentSizeCategory: ContentSize

    public init(
        horizontalSizeClass: SizeClass = .unspecified, verticalSizeClass: SizeClass = .unspecified,
        userInterfaceStyle: Style = .unspecified, layoutDirection: Direction = .unspecified,
        colorDepth: ColorDepth = .unspecified, contentSizeCategory: ContentSize = .unspecified
    ) {
        self.horizontalSizeClass = horizontalSizeClass
        self.verticalSizeClass = verticalSizeClass
        self.userInterfaceStyle = userInterfaceStyle
        self.layoutDirection = layoutDirection
        self.colorDepth = colorDepth
        self.contentSizeCategory = contentSizeCategory
    }

    /// The size classes of a terminal of `size` (the rule is the wire's,
    /// `Traits.sizeClasses`, so the compositor applies the same one).
    public static func sizeClasses(for size: Size) -> (horizontal: SizeClass, vertical: SizeClass) {
        Traits.sizeClasses(columns: size.width, rows: size.height)
    }

    /// This environment on a terminal of `size`: its size classes are the size's.
    public func onTerminal(of size: Size) -> TraitCollection {
        TraitCollection(wire.onTerminal(columns: size.width, rows: size.height))
    }

    /// The traits of a terminal of `size`, with the rest of the environment given.
    public static func terminal(
        size: Size, style: Style = .dark, direction: Direction = .leftToRight,
        colorDepth: ColorDepth = .trueColor, contentSize: ContentSize = .medium
    ) -> TraitCollection {
        TraitCollection(
            userInterfaceStyle: style, layoutDirection: direction, colorDepth: colorDepth, contentSizeCategory: contentSize
        ).onTerminal(of: size)
    }

    /// `self` with every specified field of `override` replacing it.
    public func overridden(by override: TraitCollection?) -> TraitCollection {
        guard let o = override else { return self }
        var t = self
        if o.horizontalSizeClass != .unspecified { t.horizontalSizeClass = o.horizontalSizeClass }
        if o.verticalSizeClass != .unspecified { t.verticalSizeClass = o.verticalSizeClass }
        if o.userInterfaceStyle != .unspecified { t.userInterfaceStyle = o.userInterfaceStyle }
        if o.layoutDirection != .unspecified { t.layoutDirection = o.layoutDirection }
        if o.colorDepth != .unspecified { t.colorDepth = o.colorDepth }
        if o.contentSizeCategory != .unspecified { t.contentSizeCategory = o.contentSizeCategory }
        return t
    }

    /// The wire form (the `traits` message).
    public var wire: Traits {
        Traits(
            horizontal: horizontalSizeClass, vertical: verticalSizeClass, style: userInterfaceStyle,
            direction: layoutDirection, colorDepth: colorDepth, contentSize: contentSizeCategory)
    }

    public init(_ t: Traits) {
        self.init(
            horizontalSizeClass: t.horizontal, verticalSizeClass: t.vertical, userInterfaceStyle: t.style,
            layoutDirection: t.direction, colorDepth: t.colorDepth, contentSizeCategory: t.contentSize)
    }

    public var description: String {
        "h:\(horizontalSizeClass) v:\(verticalSizeClass) \(userInterfaceStyle) \(layoutDirection) \(colorDepth) \(contentSizeCategory)"
    }
}
