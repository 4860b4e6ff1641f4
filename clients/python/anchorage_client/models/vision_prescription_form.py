from enum import StrEnum


class VisionPrescriptionForm(StrEnum):
    CONTACTS = "contacts"
    GLASSES = "glasses"
    IMAGE = "image"

    def __str__(self) -> str:
        return str(self.value)
