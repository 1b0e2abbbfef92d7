"""The review app's tables, by concern: access (roles), corpora (the audit of a
corpus's name and description), spans (spans, their audit events and
assignments), runs (the machine passes over a document and the corpus's detection
configuration) and export (export batches, pseudonym maps)."""

from review.models.access import CorpusMembership, Role
from review.models.corpora import CorpusSettingsChange
from review.models.corpus_models import CorpusModelEvent, CorpusModelVersion, ModelStatus
from review.models.dashboard import CountKind, DashboardCount
from review.models.export import (
    SCOPE_STATUSES,
    Consistency,
    ExportBatch,
    ExportScope,
    ExportStatus,
    PseudonymMap,
)
from review.models.memory import CorpusMemoryName, CorpusMemoryRemoval, CorpusSuppression, MemoryKind
from review.models.quasi import QuasiCategory, QuasiDecision, QuasiEvent, QuasiIdentifier
from review.models.runs import (
    ACTIVE_RUN_STATUSES,
    AnnotationRun,
    DetectionConfig,
    DetectionConfigChange,
    DocumentDetection,
    RunKind,
    RunStatus,
)
from review.models.spans import (
    Assignment,
    RejectReason,
    ReviewAction,
    ReviewEvent,
    Span,
    SpanStatus,
)

__all__ = [
    "CountKind",
    "DashboardCount",
    "ACTIVE_RUN_STATUSES",
    "SCOPE_STATUSES",
    "AnnotationRun",
    "Assignment",
    "Consistency",
    "CorpusMemoryName",
    "CorpusMemoryRemoval",
    "CorpusSuppression",
    "CorpusMembership",
    "CorpusModelEvent",
    "CorpusModelVersion",
    "CorpusSettingsChange",
    "DetectionConfig",
    "DetectionConfigChange",
    "DocumentDetection",
    "ExportBatch",
    "ExportScope",
    "ExportStatus",
    "MemoryKind",
    "ModelStatus",
    "PseudonymMap",
    "QuasiCategory",
    "QuasiDecision",
    "QuasiEvent",
    "QuasiIdentifier",
    "RejectReason",
    "ReviewAction",
    "ReviewEvent",
    "Role",
    "RunKind",
    "RunStatus",
    "Span",
    "SpanStatus",
]
