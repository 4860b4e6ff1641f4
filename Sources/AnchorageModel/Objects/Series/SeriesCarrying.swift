/// A sample whose value includes a series of points stored with it — a
/// workout route, a heartbeat series, an electrocardiogram — which queries
/// that list samples leave in the store (``PayloadDecoder/readsSeriesPoints``).
package protocol SeriesCarrying: HKSample {
    /// The points, when this object carries them; `nil` on a sample a
    /// listing query read.
    var points: SeriesPoints? { get }
}

extension HKSeriesSample: SeriesCarrying {}
