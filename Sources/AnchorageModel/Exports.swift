// HealthKit brings Foundation with it (Date, UUID, NSPredicate,
// NSSortDescriptor…), so code ported by changing `import HealthKit` to
// `import Anchorage` keeps compiling.
@_exported public import Foundation
