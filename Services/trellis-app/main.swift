// The seeds app: the demo's and the tests' controller classes, as a Trellis app binary.
import TrellisApp
import TrellisSeeds

TrellisApp.main(registering: SeedControllers.register(in:))
