"""Contains all the data models used in inputs/outputs"""

from .api_key_summary import ApiKeySummary
from .api_key_summary_permissions_item import ApiKeySummaryPermissionsItem
from .application import Application
from .application_list import ApplicationList
from .billing_invoice_created_data import BillingInvoiceCreatedData
from .billing_payment_failed_data import BillingPaymentFailedData
from .connection import Connection
from .connection_account_type_0 import ConnectionAccountType0
from .connection_detail import ConnectionDetail
from .connection_detail_account_type_0 import ConnectionDetailAccountType0
from .connection_detail_params import ConnectionDetailParams
from .connection_detail_provider import ConnectionDetailProvider
from .connection_detail_status import ConnectionDetailStatus
from .connection_detail_status_history_item import ConnectionDetailStatusHistoryItem
from .connection_detail_status_history_item_status import (
    ConnectionDetailStatusHistoryItemStatus,
)
from .connection_list import ConnectionList
from .connection_params import ConnectionParams
from .connection_provider import ConnectionProvider
from .connection_reauth_required_data import ConnectionReauthRequiredData
from .connection_revoked_data import ConnectionRevokedData
from .connection_status import ConnectionStatus
from .connector_document_deleted_data import ConnectorDocumentDeletedData
from .connector_export_completed_data import ConnectorExportCompletedData
from .connector_export_failed_data import ConnectorExportFailedData
from .connector_link_source_missing_data import ConnectorLinkSourceMissingData
from .connector_link_source_restored_data import ConnectorLinkSourceRestoredData
from .connector_sync_completed_data import ConnectorSyncCompletedData
from .connector_sync_completed_data_mode import ConnectorSyncCompletedDataMode
from .connector_sync_completed_data_mode_reason import (
    ConnectorSyncCompletedDataModeReason,
)
from .connector_sync_failed_data import ConnectorSyncFailedData
from .connector_sync_skipped_data import ConnectorSyncSkippedData
from .create_connection_request_type_0 import CreateConnectionRequestType0
from .create_connection_request_type_0_scope_tier import (
    CreateConnectionRequestType0ScopeTier,
)
from .create_connection_request_type_1 import CreateConnectionRequestType1
from .create_connection_request_type_1_scope_tier import (
    CreateConnectionRequestType1ScopeTier,
)
from .create_connection_request_type_2 import CreateConnectionRequestType2
from .create_connection_request_type_2_scope_tier import (
    CreateConnectionRequestType2ScopeTier,
)
from .create_connection_request_type_3 import CreateConnectionRequestType3
from .create_connection_request_type_3_scope_tier import (
    CreateConnectionRequestType3ScopeTier,
)
from .create_connection_request_type_4 import CreateConnectionRequestType4
from .create_connection_request_type_4_scope_tier import (
    CreateConnectionRequestType4ScopeTier,
)
from .create_connection_request_type_5 import CreateConnectionRequestType5
from .create_connection_request_type_5_scope_tier import (
    CreateConnectionRequestType5ScopeTier,
)
from .create_connection_request_type_6 import CreateConnectionRequestType6
from .create_connection_request_type_6_scope_tier import (
    CreateConnectionRequestType6ScopeTier,
)
from .create_connection_request_type_7 import CreateConnectionRequestType7
from .create_connection_request_type_7_scope_tier import (
    CreateConnectionRequestType7ScopeTier,
)
from .create_connection_request_type_8 import CreateConnectionRequestType8
from .create_connection_request_type_8_scope_tier import (
    CreateConnectionRequestType8ScopeTier,
)
from .create_export_request import CreateExportRequest
from .create_export_request_conflict import CreateExportRequestConflict
from .create_export_request_destination import CreateExportRequestDestination
from .create_import_link_request import CreateImportLinkRequest
from .create_import_link_request_on_source_delete import (
    CreateImportLinkRequestOnSourceDelete,
)
from .create_import_link_request_schedule import CreateImportLinkRequestSchedule
from .create_import_link_request_source import CreateImportLinkRequestSource
from .create_portal_link_request_type_0 import CreatePortalLinkRequestType0
from .create_portal_link_request_type_0_role import CreatePortalLinkRequestType0Role
from .create_portal_link_request_type_0_sections_item import (
    CreatePortalLinkRequestType0SectionsItem,
)
from .create_portal_link_request_type_1 import CreatePortalLinkRequestType1
from .create_portal_link_request_type_1_role import CreatePortalLinkRequestType1Role
from .create_webhook_endpoint_request import CreateWebhookEndpointRequest
from .create_webhook_endpoint_request_event_type_filters_item import (
    CreateWebhookEndpointRequestEventTypeFiltersItem,
)
from .create_webhook_endpoint_request_resource_scopes import (
    CreateWebhookEndpointRequestResourceScopes,
)
from .current_session import CurrentSession
from .current_session_kind import CurrentSessionKind
from .current_session_role import CurrentSessionRole
from .current_session_sections_item import CurrentSessionSectionsItem
from .current_session_theme import CurrentSessionTheme
from .current_session_theme_appearance import CurrentSessionThemeAppearance
from .dead_letter import DeadLetter
from .dead_letter_kind import DeadLetterKind
from .dead_letter_list import DeadLetterList
from .dead_letter_queue import DeadLetterQueue
from .delete_connection_purge import DeleteConnectionPurge
from .delivery import Delivery
from .delivery_attempt import DeliveryAttempt
from .delivery_attempt_error_kind_type_0 import DeliveryAttemptErrorKindType0
from .delivery_attempt_outcome import DeliveryAttemptOutcome
from .delivery_attempt_request_headers import DeliveryAttemptRequestHeaders
from .delivery_attempt_response_headers import DeliveryAttemptResponseHeaders
from .delivery_failure_reason_type_0 import DeliveryFailureReasonType0
from .delivery_list import DeliveryList
from .delivery_status import DeliveryStatus
from .delivery_with_attempts import DeliveryWithAttempts
from .delivery_with_attempts_failure_reason_type_0 import (
    DeliveryWithAttemptsFailureReasonType0,
)
from .delivery_with_attempts_status import DeliveryWithAttemptsStatus
from .deployment_failed_data import DeploymentFailedData
from .deployment_succeeded_data import DeploymentSucceededData
from .error import Error
from .error_error import ErrorError
from .error_error_code import ErrorErrorCode
from .event import Event
from .event_data import EventData
from .event_type import EventType
from .event_type_list import EventTypeList
from .event_type_permission import EventTypePermission
from .event_type_schema import EventTypeSchema
from .exchange_portal_link_request import ExchangePortalLinkRequest
from .exchange_portal_link_response_200 import ExchangePortalLinkResponse200
from .export_job import ExportJob
from .export_job_conflict import ExportJobConflict
from .export_job_counts import ExportJobCounts
from .export_job_destination import ExportJobDestination
from .export_job_failures_item import ExportJobFailuresItem
from .export_job_failures_item_reason import ExportJobFailuresItemReason
from .export_job_status import ExportJobStatus
from .export_job_waiting import ExportJobWaiting
from .export_job_waiting_reason import ExportJobWaitingReason
from .imanage_connection_params import ImanageConnectionParams
from .import_link import ImportLink
from .import_link_last_run_type_0 import ImportLinkLastRunType0
from .import_link_last_run_type_0_status import ImportLinkLastRunType0Status
from .import_link_last_skipped_type_0 import ImportLinkLastSkippedType0
from .import_link_list import ImportLinkList
from .import_link_on_source_delete import ImportLinkOnSourceDelete
from .import_link_schedule_type_0 import ImportLinkScheduleType0
from .import_link_source import ImportLinkSource
from .import_link_status import ImportLinkStatus
from .job_started import JobStarted
from .job_started_status import JobStartedStatus
from .key_binding import KeyBinding
from .link_document import LinkDocument
from .link_document_list import LinkDocumentList
from .link_document_source import LinkDocumentSource
from .link_document_status import LinkDocumentStatus
from .list_connections_provider import ListConnectionsProvider
from .list_connections_status import ListConnectionsStatus
from .list_webhook_deliveries_status import ListWebhookDeliveriesStatus
from .matter_created_data import MatterCreatedData
from .matter_updated_data import MatterUpdatedData
from .netdocuments_connection_params import NetdocumentsConnectionParams
from .netdocuments_connection_params_region import NetdocumentsConnectionParamsRegion
from .oauth_callback_provider import OauthCallbackProvider
from .ocr_job_completed_data import OcrJobCompletedData
from .ocr_job_failed_data import OcrJobFailedData
from .open_api_document import OpenApiDocument
from .open_api_document_components import OpenApiDocumentComponents
from .open_api_document_components_additional_property import (
    OpenApiDocumentComponentsAdditionalProperty,
)
from .open_api_document_info import OpenApiDocumentInfo
from .open_api_document_paths import OpenApiDocumentPaths
from .open_api_document_paths_additional_property import (
    OpenApiDocumentPathsAdditionalProperty,
)
from .open_api_document_servers_item import OpenApiDocumentServersItem
from .open_api_document_tags_item import OpenApiDocumentTagsItem
from .pending_connection import PendingConnection
from .portal_link import PortalLink
from .portal_session import PortalSession
from .portal_session_kind import PortalSessionKind
from .portal_session_list import PortalSessionList
from .portal_session_role import PortalSessionRole
from .portal_session_sections_item import PortalSessionSectionsItem
from .portal_settings import PortalSettings
from .portal_settings_appearance import PortalSettingsAppearance
from .portal_settings_input import PortalSettingsInput
from .portal_settings_input_appearance import PortalSettingsInputAppearance
from .provider import Provider
from .provider_id import ProviderId
from .provider_kind import ProviderKind
from .provider_list import ProviderList
from .provider_params_item import ProviderParamsItem
from .provider_params_item_choices_item import ProviderParamsItemChoicesItem
from .provider_params_item_kind import ProviderParamsItemKind
from .provider_scope_tiers_item import ProviderScopeTiersItem
from .provider_setting import ProviderSetting
from .provider_setting_provider import ProviderSettingProvider
from .publish_webhook_event_request_type_0 import PublishWebhookEventRequestType0
from .publish_webhook_event_request_type_1 import PublishWebhookEventRequestType1
from .publish_webhook_event_request_type_2 import PublishWebhookEventRequestType2
from .publish_webhook_event_request_type_3 import PublishWebhookEventRequestType3
from .publish_webhook_event_request_type_4 import PublishWebhookEventRequestType4
from .publish_webhook_event_request_type_5 import PublishWebhookEventRequestType5
from .publish_webhook_event_request_type_6 import PublishWebhookEventRequestType6
from .publish_webhook_event_request_type_7 import PublishWebhookEventRequestType7
from .publish_webhook_event_request_type_8 import PublishWebhookEventRequestType8
from .publish_webhook_event_request_type_9 import PublishWebhookEventRequestType9
from .publish_webhook_event_request_type_10 import PublishWebhookEventRequestType10
from .publish_webhook_event_request_type_11 import PublishWebhookEventRequestType11
from .publish_webhook_event_request_type_12 import PublishWebhookEventRequestType12
from .publish_webhook_event_request_type_13 import PublishWebhookEventRequestType13
from .publish_webhook_event_request_type_14 import PublishWebhookEventRequestType14
from .publish_webhook_event_request_type_15 import PublishWebhookEventRequestType15
from .publish_webhook_event_request_type_16 import PublishWebhookEventRequestType16
from .publish_webhook_event_request_type_17 import PublishWebhookEventRequestType17
from .publish_webhook_event_request_type_18 import PublishWebhookEventRequestType18
from .publish_webhook_event_request_type_19 import PublishWebhookEventRequestType19
from .publish_webhook_event_request_type_20 import PublishWebhookEventRequestType20
from .publish_webhook_event_request_type_21 import PublishWebhookEventRequestType21
from .publish_webhook_event_request_type_22 import PublishWebhookEventRequestType22
from .publish_webhook_event_request_type_23 import PublishWebhookEventRequestType23
from .purge_job import PurgeJob
from .purge_job_counts import PurgeJobCounts
from .purge_job_status import PurgeJobStatus
from .put_portal_settings_request import PutPortalSettingsRequest
from .put_portal_settings_request_appearance import PutPortalSettingsRequestAppearance
from .receiver_event import ReceiverEvent
from .receiver_event_data import ReceiverEventData
from .recover_webhook_endpoint_request import RecoverWebhookEndpointRequest
from .set_provider_enabled_request import SetProviderEnabledRequest
from .set_provider_enabled_request_provider import SetProviderEnabledRequestProvider
from .source import Source
from .source_kind import SourceKind
from .source_list import SourceList
from .start_sync_run_request import StartSyncRunRequest
from .start_sync_run_request_mode import StartSyncRunRequestMode
from .sync_counts import SyncCounts
from .sync_run import SyncRun
from .sync_run_failures_item import SyncRunFailuresItem
from .sync_run_failures_item_reason import SyncRunFailuresItemReason
from .sync_run_list import SyncRunList
from .sync_run_mode import SyncRunMode
from .sync_run_mode_reason import SyncRunModeReason
from .sync_run_status import SyncRunStatus
from .sync_run_trigger import SyncRunTrigger
from .sync_run_waiting import SyncRunWaiting
from .sync_run_waiting_reason import SyncRunWaitingReason
from .test_delivery import TestDelivery
from .test_delivery_error_kind_type_0 import TestDeliveryErrorKindType0
from .test_delivery_outcome import TestDeliveryOutcome
from .transcription_job_completed_data import TranscriptionJobCompletedData
from .transcription_job_failed_data import TranscriptionJobFailedData
from .update_import_link_request import UpdateImportLinkRequest
from .update_import_link_request_on_source_delete import (
    UpdateImportLinkRequestOnSourceDelete,
)
from .update_import_link_request_schedule_type_0 import (
    UpdateImportLinkRequestScheduleType0,
)
from .update_webhook_endpoint_request import UpdateWebhookEndpointRequest
from .update_webhook_endpoint_request_event_type_filters_item import (
    UpdateWebhookEndpointRequestEventTypeFiltersItem,
)
from .update_webhook_endpoint_request_resource_scopes_type_0 import (
    UpdateWebhookEndpointRequestResourceScopesType0,
)
from .vault_ingest_completed_data import VaultIngestCompletedData
from .vault_ingest_failed_data import VaultIngestFailedData
from .webhook_endpoint import WebhookEndpoint
from .webhook_endpoint_disabled_data import WebhookEndpointDisabledData
from .webhook_endpoint_list import WebhookEndpointList
from .webhook_endpoint_resource_scopes_type_0 import WebhookEndpointResourceScopesType0
from .webhook_endpoint_with_secret import WebhookEndpointWithSecret
from .webhook_job import WebhookJob
from .webhook_job_counts import WebhookJobCounts
from .webhook_job_status import WebhookJobStatus
from .webhook_test_data import WebhookTestData

__all__ = (
    "ApiKeySummary",
    "ApiKeySummaryPermissionsItem",
    "Application",
    "ApplicationList",
    "BillingInvoiceCreatedData",
    "BillingPaymentFailedData",
    "Connection",
    "ConnectionAccountType0",
    "ConnectionDetail",
    "ConnectionDetailAccountType0",
    "ConnectionDetailParams",
    "ConnectionDetailProvider",
    "ConnectionDetailStatus",
    "ConnectionDetailStatusHistoryItem",
    "ConnectionDetailStatusHistoryItemStatus",
    "ConnectionList",
    "ConnectionParams",
    "ConnectionProvider",
    "ConnectionReauthRequiredData",
    "ConnectionRevokedData",
    "ConnectionStatus",
    "ConnectorDocumentDeletedData",
    "ConnectorExportCompletedData",
    "ConnectorExportFailedData",
    "ConnectorLinkSourceMissingData",
    "ConnectorLinkSourceRestoredData",
    "ConnectorSyncCompletedData",
    "ConnectorSyncCompletedDataMode",
    "ConnectorSyncCompletedDataModeReason",
    "ConnectorSyncFailedData",
    "ConnectorSyncSkippedData",
    "CreateConnectionRequestType0",
    "CreateConnectionRequestType0ScopeTier",
    "CreateConnectionRequestType1",
    "CreateConnectionRequestType1ScopeTier",
    "CreateConnectionRequestType2",
    "CreateConnectionRequestType2ScopeTier",
    "CreateConnectionRequestType3",
    "CreateConnectionRequestType3ScopeTier",
    "CreateConnectionRequestType4",
    "CreateConnectionRequestType4ScopeTier",
    "CreateConnectionRequestType5",
    "CreateConnectionRequestType5ScopeTier",
    "CreateConnectionRequestType6",
    "CreateConnectionRequestType6ScopeTier",
    "CreateConnectionRequestType7",
    "CreateConnectionRequestType7ScopeTier",
    "CreateConnectionRequestType8",
    "CreateConnectionRequestType8ScopeTier",
    "CreateExportRequest",
    "CreateExportRequestConflict",
    "CreateExportRequestDestination",
    "CreateImportLinkRequest",
    "CreateImportLinkRequestOnSourceDelete",
    "CreateImportLinkRequestSchedule",
    "CreateImportLinkRequestSource",
    "CreatePortalLinkRequestType0",
    "CreatePortalLinkRequestType0Role",
    "CreatePortalLinkRequestType0SectionsItem",
    "CreatePortalLinkRequestType1",
    "CreatePortalLinkRequestType1Role",
    "CreateWebhookEndpointRequest",
    "CreateWebhookEndpointRequestEventTypeFiltersItem",
    "CreateWebhookEndpointRequestResourceScopes",
    "CurrentSession",
    "CurrentSessionKind",
    "CurrentSessionRole",
    "CurrentSessionSectionsItem",
    "CurrentSessionTheme",
    "CurrentSessionThemeAppearance",
    "DeadLetter",
    "DeadLetterKind",
    "DeadLetterList",
    "DeadLetterQueue",
    "DeleteConnectionPurge",
    "Delivery",
    "DeliveryAttempt",
    "DeliveryAttemptErrorKindType0",
    "DeliveryAttemptOutcome",
    "DeliveryAttemptRequestHeaders",
    "DeliveryAttemptResponseHeaders",
    "DeliveryFailureReasonType0",
    "DeliveryList",
    "DeliveryStatus",
    "DeliveryWithAttempts",
    "DeliveryWithAttemptsFailureReasonType0",
    "DeliveryWithAttemptsStatus",
    "DeploymentFailedData",
    "DeploymentSucceededData",
    "Error",
    "ErrorError",
    "ErrorErrorCode",
    "Event",
    "EventData",
    "EventType",
    "EventTypeList",
    "EventTypePermission",
    "EventTypeSchema",
    "ExchangePortalLinkRequest",
    "ExchangePortalLinkResponse200",
    "ExportJob",
    "ExportJobConflict",
    "ExportJobCounts",
    "ExportJobDestination",
    "ExportJobFailuresItem",
    "ExportJobFailuresItemReason",
    "ExportJobStatus",
    "ExportJobWaiting",
    "ExportJobWaitingReason",
    "ImanageConnectionParams",
    "ImportLink",
    "ImportLinkLastRunType0",
    "ImportLinkLastRunType0Status",
    "ImportLinkLastSkippedType0",
    "ImportLinkList",
    "ImportLinkOnSourceDelete",
    "ImportLinkScheduleType0",
    "ImportLinkSource",
    "ImportLinkStatus",
    "JobStarted",
    "JobStartedStatus",
    "KeyBinding",
    "LinkDocument",
    "LinkDocumentList",
    "LinkDocumentSource",
    "LinkDocumentStatus",
    "ListConnectionsProvider",
    "ListConnectionsStatus",
    "ListWebhookDeliveriesStatus",
    "MatterCreatedData",
    "MatterUpdatedData",
    "NetdocumentsConnectionParams",
    "NetdocumentsConnectionParamsRegion",
    "OauthCallbackProvider",
    "OcrJobCompletedData",
    "OcrJobFailedData",
    "OpenApiDocument",
    "OpenApiDocumentComponents",
    "OpenApiDocumentComponentsAdditionalProperty",
    "OpenApiDocumentInfo",
    "OpenApiDocumentPaths",
    "OpenApiDocumentPathsAdditionalProperty",
    "OpenApiDocumentServersItem",
    "OpenApiDocumentTagsItem",
    "PendingConnection",
    "PortalLink",
    "PortalSession",
    "PortalSessionKind",
    "PortalSessionList",
    "PortalSessionRole",
    "PortalSessionSectionsItem",
    "PortalSettings",
    "PortalSettingsAppearance",
    "PortalSettingsInput",
    "PortalSettingsInputAppearance",
    "Provider",
    "ProviderId",
    "ProviderKind",
    "ProviderList",
    "ProviderParamsItem",
    "ProviderParamsItemChoicesItem",
    "ProviderParamsItemKind",
    "ProviderScopeTiersItem",
    "ProviderSetting",
    "ProviderSettingProvider",
    "PublishWebhookEventRequestType0",
    "PublishWebhookEventRequestType1",
    "PublishWebhookEventRequestType2",
    "PublishWebhookEventRequestType3",
    "PublishWebhookEventRequestType4",
    "PublishWebhookEventRequestType5",
    "PublishWebhookEventRequestType6",
    "PublishWebhookEventRequestType7",
    "PublishWebhookEventRequestType8",
    "PublishWebhookEventRequestType9",
    "PublishWebhookEventRequestType10",
    "PublishWebhookEventRequestType11",
    "PublishWebhookEventRequestType12",
    "PublishWebhookEventRequestType13",
    "PublishWebhookEventRequestType14",
    "PublishWebhookEventRequestType15",
    "PublishWebhookEventRequestType16",
    "PublishWebhookEventRequestType17",
    "PublishWebhookEventRequestType18",
    "PublishWebhookEventRequestType19",
    "PublishWebhookEventRequestType20",
    "PublishWebhookEventRequestType21",
    "PublishWebhookEventRequestType22",
    "PublishWebhookEventRequestType23",
    "PurgeJob",
    "PurgeJobCounts",
    "PurgeJobStatus",
    "PutPortalSettingsRequest",
    "PutPortalSettingsRequestAppearance",
    "ReceiverEvent",
    "ReceiverEventData",
    "RecoverWebhookEndpointRequest",
    "SetProviderEnabledRequest",
    "SetProviderEnabledRequestProvider",
    "Source",
    "SourceKind",
    "SourceList",
    "StartSyncRunRequest",
    "StartSyncRunRequestMode",
    "SyncCounts",
    "SyncRun",
    "SyncRunFailuresItem",
    "SyncRunFailuresItemReason",
    "SyncRunList",
    "SyncRunMode",
    "SyncRunModeReason",
    "SyncRunStatus",
    "SyncRunTrigger",
    "SyncRunWaiting",
    "SyncRunWaitingReason",
    "TestDelivery",
    "TestDeliveryErrorKindType0",
    "TestDeliveryOutcome",
    "TranscriptionJobCompletedData",
    "TranscriptionJobFailedData",
    "UpdateImportLinkRequest",
    "UpdateImportLinkRequestOnSourceDelete",
    "UpdateImportLinkRequestScheduleType0",
    "UpdateWebhookEndpointRequest",
    "UpdateWebhookEndpointRequestEventTypeFiltersItem",
    "UpdateWebhookEndpointRequestResourceScopesType0",
    "VaultIngestCompletedData",
    "VaultIngestFailedData",
    "WebhookEndpoint",
    "WebhookEndpointDisabledData",
    "WebhookEndpointList",
    "WebhookEndpointResourceScopesType0",
    "WebhookEndpointWithSecret",
    "WebhookJob",
    "WebhookJobCounts",
    "WebhookJobStatus",
    "WebhookTestData",
)
