// The clock and the error shape every module shares.
@_exported public import AnchorageCore
// Workout routes are CoreLocation's `CLLocation`s; HealthKit's route API
// names them, so the model brings them along.
@_exported public import CoreLocation
// HealthKit brings Foundation with it (Date, UUID, NSPredicate,
// NSSortDescriptor…), so code ported by changing `import HealthKit` to
// `import Anchorage` keeps compiling.
@_exported public import Foundation
