import Anchorage
import ArgumentParser

/// `--type` of the commands that read the samples of one type.
struct SampleTypeOption: ParsableArguments {
    @Option(help: "A sample type: stepCount, sleepAnalysis, workout…")
    var type: String

    /// The sample type `--type` names.
    func sampleType() throws -> HKSampleType {
        try SampleTypeArgument.require(type)
    }

    func validate() throws {
        _ = try sampleType()
    }
}
