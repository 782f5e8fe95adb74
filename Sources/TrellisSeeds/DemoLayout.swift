import TrellisViews

/// Constraint shorthands the demo's controllers share. Everything in the demo is placed
/// by constraints relative to its container's edges, so any terminal size from 60×20 up
/// and every resize lay out without code of their own.
enum DemoLayout {
    /// Places `views` left to right on row `top` of `container`, from column `leading`,
    /// `spacing` cells apart, each at its intrinsic size (labels and buttons have one).
    static func row(_ views: [View], in container: View, top: Int, leading: Int = 1, spacing: Int = 1) {
        var previous: View?
        for v in views {
            v.translatesAutoresizingMaskIntoConstraints = false
            container.addSubview(v)
            LayoutConstraint.activate([
                v.topAnchor.constraint(equalTo: container.topAnchor, constant: Double(top)),
                previous.map { v.leadingAnchor.constraint(equalTo: $0.trailingAnchor, constant: Double(spacing)) }
                    ?? v.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: Double(leading)),
            ])
            previous = v
        }
    }

    /// A label across `container` on row `top` (one row high, inset one cell each side),
    /// cut at the edge when the terminal is narrow rather than pushing anything.
    static func line(_ label: Label, in container: View, top: Int) {
        label.translatesAutoresizingMaskIntoConstraints = false
        container.addSubview(label)
        LayoutConstraint.activate([
            label.topAnchor.constraint(equalTo: container.topAnchor, constant: Double(top)),
            label.heightAnchor.constraint(equalToConstant: 1),
            label.leadingAnchor.constraint(equalTo: container.leadingAnchor, constant: 1),
            label.trailingAnchor.constraint(equalTo: container.trailingAnchor, constant: -1),
        ])
    }
}
