// The HealthKit model lives in AnchorageModel; the store, queries and
// statistics views live here. Re-exporting the model keeps ports at one
// import: code that said `import HealthKit` says `import Anchorage`.
@_exported public import AnchorageModel
