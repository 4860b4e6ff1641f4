// A module named HealthKit for platforms without Apple's: code written for
// HealthKit keeps `import HealthKit` and names qualified with the module
// (`HealthKit.HKUnit.minute()`) unchanged. It re-exports Anchorage, whose
// public names are HealthKit's (and CoreLocation's, for routes).
//
// Depend on it only where there is no system HealthKit:
//
//     .product(name: "HealthKit", package: "anchorage", condition: .when(platforms: [.linux]))
//
// On Apple's platforms it is empty, so that it never stands in for the real one.
#if !canImport(Darwin)
@_exported public import Anchorage
#endif
