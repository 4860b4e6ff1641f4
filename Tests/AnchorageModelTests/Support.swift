import Foundation

/// A fixed day: 2026-03-10 00:00 UTC.
let day = Date(timeIntervalSince1970: 1_773_100_800)

func minutes(_ m: Double, from base: Date = day) -> Date { base.addingTimeInterval(m * 60) }
