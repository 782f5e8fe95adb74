import TrellisCanvas
import TrellisLog
import TrellisViews
import TrellisWire

/// Where the layers go: in-process children composed into the window's surface, children
/// in other processes placed for the compositor, moving children lifted for it to animate,
/// and the placement lines the log shows.
extension Window {
    /// Whether `collect` lifts moving in-process children out of the window's surface.
    enum Lifting {
        /// Not for this composition (an in-process window, or `compose()`).
        case never
        /// Yes: the layers collected go into the window's surface.
        case top
        /// Collecting into a lifted surface whose origin is at this point of the window:
        /// nothing inside is lifted again, and remote children are placed in the window's
        /// coordinates (they do not follow the motion).
        case inside(Point)
    }

    func collect(
        _ placements: [ViewportPlacement], by container: String, offset: Point, clip: Rect, takingChangedRows: Bool,
        lifting: Lifting, into arrangement: inout Arrangement, _ placed: inout [ControllerID: (String, Placement)]
    ) {
        for p in placements {
            guard let child = p.view.owner as? ViewController else { continue }
            let shown = animator.presentationFrame(of: p.view)
            let frame = p.frame.offsetBy(dx: offset.x + shown.minX - p.view.frame.minX, dy: offset.y + shown.minY - p.view.frame.minY)
            let layerClip = p.clip.offsetBy(dx: offset.x, dy: offset.y).intersection(clip)
            placed[child.id] = (container, Placement(
                surface: child.id, frame: CellRect(p.frame), z: Int32(p.z), clip: CellRect(p.clip), visible: true))
            if case .top = lifting, !(child is RemoteController), animator.isMoving(p.view) {
                lift(child, frame: frame, clip: layerClip, z: arrangement.layers.count, container: container, &placed)
                declare(child, viewport: p.view, frame: frame)
                continue
            }
            let (placements, rows) = renderSurface(of: child, takingChangedRows: takingChangedRows)
            arrangement.add(
                Layer(surface: child.surface, frame: frame, clip: layerClip, z: arrangement.layers.count, visible: true),
                owner: child, changedRows: rows)
            if child is RemoteController {
                // Its content is another process's surface: the compositor places it there,
                // in this window's coordinates, above what this process drew.
                var inWindow = (frame: frame, clip: layerClip)
                if case .inside(let origin) = lifting {
                    inWindow = (frame.offsetBy(dx: origin.x, dy: origin.y), layerClip.offsetBy(dx: origin.x, dy: origin.y))
                }
                remote.append(Placement(
                    surface: child.id, frame: CellRect(inWindow.frame), z: Int32(arrangement.layers.count),
                    clip: CellRect(inWindow.clip), visible: true))
                if case .top = lifting { declare(child, viewport: p.view, frame: frame) }
            }
            collect(
                placements, by: child.id.rawValue, offset: frame.origin, clip: layerClip, takingChangedRows: takingChangedRows,
                lifting: lifting, into: &arrangement, &placed)
        }
    }

    /// Composes `child`'s subtree into a surface of its own and places it where the model
    /// has it, above what this window drew so far (`z`), for the compositor to move.
    func lift(
        _ child: ViewController, frame: Rect, clip: Rect, z: Int, container: String,
        _ placed: inout [ControllerID: (String, Placement)]
    ) {
        let bounds = Rect(origin: .zero, size: frame.size)
        var layers = Arrangement(height: frame.height)
        let (placements, _) = renderSurface(of: child, takingChangedRows: true)
        layers.add(Layer(surface: child.surface, frame: bounds, clip: bounds, z: 0, visible: true), owner: child, changedRows: nil)
        collect(
            placements, by: child.id.rawValue, offset: .zero, clip: bounds, takingChangedRows: true,
            lifting: .inside(frame.origin), into: &layers, &placed)
        var surface = liftedSurfaces[child.id].flatMap { $0.size == frame.size ? $0 : nil } ?? {
            var fresh = Surface(size: frame.size)
            fresh.damageAll()
            return fresh
        }()
        Composition.compose(layers.layers, into: &surface)
        if var update = surface.takeFrame(number: 0) {
            update.layer = child.id
            liftedFrames.append(update)
        }
        liftedNext[child.id] = surface
        remote.append(Placement(surface: child.id, frame: CellRect(frame), z: Int32(z), clip: CellRect(clip), visible: true))
    }

    /// Notes `viewport`'s motion for the compositor, if it has not been told: from where
    /// it was to `frame` (the model's place, in this window's coordinates).
    func declare(_ child: ViewController, viewport: View, frame: Rect) {
        guard let m = animator.undeclared(viewport) else { return }
        let from = Rect(
            x: frame.minX + m.from.minX - viewport.frame.minX, y: frame.minY + m.from.minY - viewport.frame.minY,
            width: m.from.width, height: m.from.height)
        declarations.append((m.group, Animation(
            surface: child.id, from: CellRect(from), to: CellRect(frame),
            durationMilliseconds: UInt32((m.duration * 1000).rounded()), curve: m.curve)))
    }

    /// Logs the placement lines of the last arrangement (`logPlacementChanges`), if not
    /// yet: a host calls it once its frame is sent, so that the lines — bookkeeping — do not
    /// hold the frame back; the next arrangement, or a `compose`, logs them otherwise.
    public func logArrangedPlacements() {
        guard let placed = arrangedPlacements else { return }
        arrangedPlacements = nil
        logPlacementChanges(placed)
    }

    /// What the containers would send the compositor: a placement line per child whose
    /// place, order or visibility changed since the last composition (S1-4's strategies
    /// show up here: a child brought to the front, a child hidden).
    func logPlacementChanges(_ placed: [ControllerID: (String, Placement)]) {
        defer { lastPlacements = placed }
        guard log.isEnabled || observer != nil else { return }
        // Every frame comes here, and placements seldom change: sorted (for a stable log)
        // only when one did.
        guard placed.count != lastPlacements.count || placed.contains(where: { lastPlacements[$0.key]?.1 != $0.value.1 })
        else { return }
        for (id, (container, p)) in placed.sorted(by: { $0.key < $1.key }) where lastPlacements[id]?.1 != p {
            route(kind: "placement", from: container, to: id, outcome: .sent, reason: nil, detail: Message.placement(p).summary)
        }
        for (id, (container, old)) in lastPlacements.sorted(by: { $0.key < $1.key }) where placed[id] == nil {
            var hidden = old
            hidden.visible = false
            route(kind: "placement", from: container, to: id, outcome: .sent, reason: nil, detail: Message.placement(hidden).summary)
        }
    }
}
