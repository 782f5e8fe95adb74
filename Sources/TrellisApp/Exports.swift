// An app imports one module, as a UIKit app imports UIKit: the controllers, the views,
// the geometry and the ids it builds with come with the entry point.
@_exported import TrellisCanvas
@_exported import TrellisControllers
@_exported import TrellisViews
@_exported import TrellisWire
