import Foundation

extension PayloadCodec {
    /// A medication dose event after its common fields (kind 14): the
    /// concept's domain and code, schedule type, log status, a flags byte
    /// (1 scheduled date, 2 scheduled dose, 4 dose), those present, then
    /// the unit.
    package static func writeDoseEvent(_ event: HKMedicationDoseEvent, into writer: inout PayloadWriter) {
        writer.string(event.medicationConceptIdentifier.domain.rawValue)
        writer.string(event.medicationConceptIdentifier.code)
        writer.varint(UInt64(event.scheduleType.rawValue))
        writer.varint(UInt64(event.logStatus.rawValue))
        var flags: UInt8 = 0
        if event.scheduledDate != nil { flags |= 1 }
        if event.scheduledDoseQuantity != nil { flags |= 2 }
        if event.doseQuantity != nil { flags |= 4 }
        writer.byte(flags)
        if let date = event.scheduledDate { writer.date(date) }
        if let quantity = event.scheduledDoseQuantity { writer.double(quantity) }
        if let quantity = event.doseQuantity { writer.double(quantity) }
        writer.block(event.unit.storage.utf8)
    }
}

extension PayloadDecoder {
    /// A medication dose event after its common fields (kind 14).
    mutating func readDoseEvent(
        _ reader: inout PayloadReader,
        _ fields: consuming SampleFields
    ) throws(HKError) -> HKMedicationDoseEvent {
        let limit = HKHealthConceptIdentifier.maximumCodeSize
        let domain = try reader.string("the concept's domain", limit: limit)
        let code = try reader.string("the concept's code", limit: limit)
        let concept = try HKHealthConceptIdentifier(domain: HKHealthConceptDomain(rawValue: domain), code: code)
        guard
            let scheduleType = HKMedicationDoseEvent.ScheduleType(
                rawValue: try reader.count("the schedule type", limit: 100)
            )
        else { throw .invalid("MED-1", "the dose event's schedule type is unknown") }
        guard let status = HKMedicationDoseEvent.LogStatus(rawValue: try reader.count("the log status", limit: 100))
        else {
            throw .invalid("MED-1", "the dose event's log status is unknown")
        }
        let flags = try reader.byte("the dose event's flags")
        guard flags & ~7 == 0 else { throw .invalid("PAYLOAD-2", "the dose event's flags are not valid") }
        let date = flags & 1 != 0 ? try reader.date("the scheduled date") : nil
        let scheduled = flags & 2 != 0 ? try reader.double("the scheduled dose") : nil
        let dose = flags & 4 != 0 ? try reader.double("the dose") : nil
        let unit = try readUnit(&reader)
        return try HKMedicationDoseEvent.make(
            HKMedicationDoseEvent.Dose(
                concept: concept,
                scheduleType: scheduleType,
                scheduledDate: date,
                scheduledDoseQuantity: scheduled,
                doseQuantity: dose,
                logStatus: status,
                unit: unit
            ),
            fields
        )
    }
}
