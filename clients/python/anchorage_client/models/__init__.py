"""Contains all the data models used in inputs/outputs"""

from .access_log_page import AccessLogPage
from .access_log_page_entries_item import AccessLogPageEntriesItem
from .activity_quantity import ActivityQuantity
from .activity_summaries_response_200 import ActivitySummariesResponse200
from .activity_summary import ActivitySummary
from .activity_summary_activity_move_mode import ActivitySummaryActivityMoveMode
from .add_store_peer_body import AddStorePeerBody
from .add_store_peer_body_direction_type_1 import AddStorePeerBodyDirectionType1
from .add_store_peer_body_direction_type_2_type_1 import AddStorePeerBodyDirectionType2Type1
from .add_store_peer_body_direction_type_3_type_1 import AddStorePeerBodyDirectionType3Type1
from .audiogram import Audiogram
from .authorization_response_200 import AuthorizationResponse200
from .authorization_response_200_app import AuthorizationResponse200App
from .authorization_response_200_principal import AuthorizationResponse200Principal
from .batch_receipt import BatchReceipt
from .category_sample import CategorySample
from .change_page import ChangePage
from .change_page_deleted_item import ChangePageDeletedItem
from .changes_stream import ChangesStream
from .clamping_range import ClampingRange
from .clinical_record import ClinicalRecord
from .concept_identifier import ConceptIdentifier
from .correlation import Correlation
from .created_stores import CreatedStores
from .device import Device
from .electrocardiogram import Electrocardiogram
from .electrocardiogram_classification import ElectrocardiogramClassification
from .electrocardiogram_symptoms_status import ElectrocardiogramSymptomsStatus
from .error import Error
from .error_code_type_0 import ErrorCodeType0
from .fhir_resource import FHIRResource
from .fleet_copy import FleetCopy
from .fleet_copy_role import FleetCopyRole
from .fleet_status import FleetStatus
from .fleet_status_copies_item import FleetStatusCopiesItem
from .fleet_status_nodes_item import FleetStatusNodesItem
from .health_object_fields import HealthObjectFields
from .health_response_200 import HealthResponse200
from .heartbeat import Heartbeat
from .heartbeat_series import HeartbeatSeries
from .heartbeats_response_200 import HeartbeatsResponse200
from .heartbeats_response_200_heartbeats_item import HeartbeatsResponse200HeartbeatsItem
from .issued_token import IssuedToken
from .lead import Lead
from .lead_lead import LeadLead
from .lens import Lens
from .list_samples_response_200 import ListSamplesResponse200
from .list_samples_sort import ListSamplesSort
from .list_store_peers_response_200 import ListStorePeersResponse200
from .list_stores_response_200 import ListStoresResponse200
from .list_tokens_response_200 import ListTokensResponse200
from .list_webhooks_response_200 import ListWebhooksResponse200
from .location import Location
from .medication_dose_event import MedicationDoseEvent
from .medication_dose_event_log_status import MedicationDoseEventLogStatus
from .medication_dose_event_schedule_type import MedicationDoseEventScheduleType
from .metadata import Metadata
from .metadata_bool import MetadataBool
from .metadata_date import MetadataDate
from .metadata_double import MetadataDouble
from .metadata_integer import MetadataInteger
from .metadata_quantity import MetadataQuantity
from .metadata_string import MetadataString
from .move_store_body import MoveStoreBody
from .open_api_document_response_200 import OpenApiDocumentResponse200
from .peer_identity import PeerIdentity
from .peer_identity_version_vector import PeerIdentityVersionVector
from .peer_status import PeerStatus
from .peer_status_state import PeerStatusState
from .peers_response_200 import PeersResponse200
from .peers_response_200_pushes_received import PeersResponse200PushesReceived
from .prism import Prism
from .prism_eye import PrismEye
from .prism_horizontal_base import PrismHorizontalBase
from .prism_vertical_base import PrismVerticalBase
from .pull_request import PullRequest
from .pull_request_version_vector import PullRequestVersionVector
from .quantity import Quantity
from .quantity_sample import QuantitySample
from .register_webhook_body import RegisterWebhookBody
from .register_webhook_body_frequency_type_1 import RegisterWebhookBodyFrequencyType1
from .register_webhook_body_frequency_type_2_type_1 import RegisterWebhookBodyFrequencyType2Type1
from .register_webhook_body_frequency_type_3_type_1 import RegisterWebhookBodyFrequencyType3Type1
from .rekey_store_response_202 import RekeyStoreResponse202
from .save_samples_body_type_1 import SaveSamplesBodyType1
from .save_samples_response_201 import SaveSamplesResponse201
from .scored_assessment import ScoredAssessment
from .seal_placed_store_response_202 import SealPlacedStoreResponse202
from .sensitivity_point import SensitivityPoint
from .sensitivity_test import SensitivityTest
from .sensitivity_test_side import SensitivityTestSide
from .sensitivity_test_type import SensitivityTestType
from .series_quantity import SeriesQuantity
from .set_source_priority_body import SetSourcePriorityBody
from .set_source_priority_response_200 import SetSourcePriorityResponse200
from .set_store_quota_body import SetStoreQuotaBody
from .shred_store_response_200 import ShredStoreResponse200
from .sign_in_body import SignInBody
from .sign_in_response_200 import SignInResponse200
from .source import Source
from .source_revision import SourceRevision
from .sources_response_200 import SourcesResponse200
from .state_of_mind import StateOfMind
from .state_of_mind_state_of_mind_kind import StateOfMindStateOfMindKind
from .statistics import Statistics
from .statistics_options_item import StatisticsOptionsItem
from .statistics_statistics_item import StatisticsStatisticsItem
from .statistics_statistics_item_sources_item import StatisticsStatisticsItemSourcesItem
from .store_activity_summaries_response_200 import StoreActivitySummariesResponse200
from .store_authorization_response_200 import StoreAuthorizationResponse200
from .store_authorization_response_200_app import StoreAuthorizationResponse200App
from .store_authorization_response_200_principal import StoreAuthorizationResponse200Principal
from .store_changes_stream import StoreChangesStream
from .store_creation import StoreCreation
from .store_heartbeats_response_200 import StoreHeartbeatsResponse200
from .store_heartbeats_response_200_heartbeats_item import StoreHeartbeatsResponse200HeartbeatsItem
from .store_list_samples_response_200 import StoreListSamplesResponse200
from .store_list_samples_sort import StoreListSamplesSort
from .store_list_webhooks_response_200 import StoreListWebhooksResponse200
from .store_peer import StorePeer
from .store_peer_direction import StorePeerDirection
from .store_placement import StorePlacement
from .store_record import StoreRecord
from .store_record_state import StoreRecordState
from .store_register_webhook_body import StoreRegisterWebhookBody
from .store_register_webhook_body_frequency_type_1 import StoreRegisterWebhookBodyFrequencyType1
from .store_register_webhook_body_frequency_type_2_type_1 import StoreRegisterWebhookBodyFrequencyType2Type1
from .store_register_webhook_body_frequency_type_3_type_1 import StoreRegisterWebhookBodyFrequencyType3Type1
from .store_save_samples_body_type_1 import StoreSaveSamplesBodyType1
from .store_save_samples_response_201 import StoreSaveSamplesResponse201
from .store_set_source_priority_body import StoreSetSourcePriorityBody
from .store_set_source_priority_response_200 import StoreSetSourcePriorityResponse200
from .store_sources_response_200 import StoreSourcesResponse200
from .store_sync_wait_response_200 import StoreSyncWaitResponse200
from .store_update import StoreUpdate
from .store_update_kind import StoreUpdateKind
from .store_updates_page import StoreUpdatesPage
from .store_updates_stream import StoreUpdatesStream
from .store_workout_routes_format import StoreWorkoutRoutesFormat
from .stores_creation import StoresCreation
from .sync_identity import SyncIdentity
from .sync_wait_response_200 import SyncWaitResponse200
from .token_for_app import TokenForApp
from .token_for_owner import TokenForOwner
from .token_for_peer import TokenForPeer
from .token_grant import TokenGrant
from .token_record import TokenRecord
from .version_vector import VersionVector
from .vision_prescription import VisionPrescription
from .vision_prescription_form import VisionPrescriptionForm
from .vision_prescription_prescription_type import VisionPrescriptionPrescriptionType
from .web_asset_response_200 import WebAssetResponse200
from .web_asset_response_200_kind import WebAssetResponse200Kind
from .webhook import Webhook
from .webhook_frequency import WebhookFrequency
from .workout import Workout
from .workout_activity import WorkoutActivity
from .workout_activity_location_type import WorkoutActivityLocationType
from .workout_activity_swimming_location_type import WorkoutActivitySwimmingLocationType
from .workout_event import WorkoutEvent
from .workout_event_type import WorkoutEventType
from .workout_route import WorkoutRoute
from .workout_routes import WorkoutRoutes
from .workout_routes_features_item import WorkoutRoutesFeaturesItem
from .workout_routes_features_item_geometry import WorkoutRoutesFeaturesItemGeometry
from .workout_routes_features_item_properties import WorkoutRoutesFeaturesItemProperties
from .workout_routes_format import WorkoutRoutesFormat
from .workout_statistic import WorkoutStatistic

__all__ = (
    "AccessLogPage",
    "AccessLogPageEntriesItem",
    "ActivityQuantity",
    "ActivitySummariesResponse200",
    "ActivitySummary",
    "ActivitySummaryActivityMoveMode",
    "AddStorePeerBody",
    "AddStorePeerBodyDirectionType1",
    "AddStorePeerBodyDirectionType2Type1",
    "AddStorePeerBodyDirectionType3Type1",
    "Audiogram",
    "AuthorizationResponse200",
    "AuthorizationResponse200App",
    "AuthorizationResponse200Principal",
    "BatchReceipt",
    "CategorySample",
    "ChangePage",
    "ChangePageDeletedItem",
    "ChangesStream",
    "ClampingRange",
    "ClinicalRecord",
    "ConceptIdentifier",
    "Correlation",
    "CreatedStores",
    "Device",
    "Electrocardiogram",
    "ElectrocardiogramClassification",
    "ElectrocardiogramSymptomsStatus",
    "Error",
    "ErrorCodeType0",
    "FHIRResource",
    "FleetCopy",
    "FleetCopyRole",
    "FleetStatus",
    "FleetStatusCopiesItem",
    "FleetStatusNodesItem",
    "HealthObjectFields",
    "HealthResponse200",
    "Heartbeat",
    "HeartbeatSeries",
    "HeartbeatsResponse200",
    "HeartbeatsResponse200HeartbeatsItem",
    "IssuedToken",
    "Lead",
    "LeadLead",
    "Lens",
    "ListSamplesResponse200",
    "ListSamplesSort",
    "ListStorePeersResponse200",
    "ListStoresResponse200",
    "ListTokensResponse200",
    "ListWebhooksResponse200",
    "Location",
    "MedicationDoseEvent",
    "MedicationDoseEventLogStatus",
    "MedicationDoseEventScheduleType",
    "Metadata",
    "MetadataBool",
    "MetadataDate",
    "MetadataDouble",
    "MetadataInteger",
    "MetadataQuantity",
    "MetadataString",
    "MoveStoreBody",
    "OpenApiDocumentResponse200",
    "PeerIdentity",
    "PeerIdentityVersionVector",
    "PeersResponse200",
    "PeersResponse200PushesReceived",
    "PeerStatus",
    "PeerStatusState",
    "Prism",
    "PrismEye",
    "PrismHorizontalBase",
    "PrismVerticalBase",
    "PullRequest",
    "PullRequestVersionVector",
    "Quantity",
    "QuantitySample",
    "RegisterWebhookBody",
    "RegisterWebhookBodyFrequencyType1",
    "RegisterWebhookBodyFrequencyType2Type1",
    "RegisterWebhookBodyFrequencyType3Type1",
    "RekeyStoreResponse202",
    "SaveSamplesBodyType1",
    "SaveSamplesResponse201",
    "ScoredAssessment",
    "SealPlacedStoreResponse202",
    "SensitivityPoint",
    "SensitivityTest",
    "SensitivityTestSide",
    "SensitivityTestType",
    "SeriesQuantity",
    "SetSourcePriorityBody",
    "SetSourcePriorityResponse200",
    "SetStoreQuotaBody",
    "ShredStoreResponse200",
    "SignInBody",
    "SignInResponse200",
    "Source",
    "SourceRevision",
    "SourcesResponse200",
    "StateOfMind",
    "StateOfMindStateOfMindKind",
    "Statistics",
    "StatisticsOptionsItem",
    "StatisticsStatisticsItem",
    "StatisticsStatisticsItemSourcesItem",
    "StoreActivitySummariesResponse200",
    "StoreAuthorizationResponse200",
    "StoreAuthorizationResponse200App",
    "StoreAuthorizationResponse200Principal",
    "StoreChangesStream",
    "StoreCreation",
    "StoreHeartbeatsResponse200",
    "StoreHeartbeatsResponse200HeartbeatsItem",
    "StoreListSamplesResponse200",
    "StoreListSamplesSort",
    "StoreListWebhooksResponse200",
    "StorePeer",
    "StorePeerDirection",
    "StorePlacement",
    "StoreRecord",
    "StoreRecordState",
    "StoreRegisterWebhookBody",
    "StoreRegisterWebhookBodyFrequencyType1",
    "StoreRegisterWebhookBodyFrequencyType2Type1",
    "StoreRegisterWebhookBodyFrequencyType3Type1",
    "StoreSaveSamplesBodyType1",
    "StoreSaveSamplesResponse201",
    "StoresCreation",
    "StoreSetSourcePriorityBody",
    "StoreSetSourcePriorityResponse200",
    "StoreSourcesResponse200",
    "StoreSyncWaitResponse200",
    "StoreUpdate",
    "StoreUpdateKind",
    "StoreUpdatesPage",
    "StoreUpdatesStream",
    "StoreWorkoutRoutesFormat",
    "SyncIdentity",
    "SyncWaitResponse200",
    "TokenForApp",
    "TokenForOwner",
    "TokenForPeer",
    "TokenGrant",
    "TokenRecord",
    "VersionVector",
    "VisionPrescription",
    "VisionPrescriptionForm",
    "VisionPrescriptionPrescriptionType",
    "WebAssetResponse200",
    "WebAssetResponse200Kind",
    "Webhook",
    "WebhookFrequency",
    "Workout",
    "WorkoutActivity",
    "WorkoutActivityLocationType",
    "WorkoutActivitySwimmingLocationType",
    "WorkoutEvent",
    "WorkoutEventType",
    "WorkoutRoute",
    "WorkoutRoutes",
    "WorkoutRoutesFeaturesItem",
    "WorkoutRoutesFeaturesItemGeometry",
    "WorkoutRoutesFeaturesItemProperties",
    "WorkoutRoutesFormat",
    "WorkoutStatistic",
)
