"""Settings, read from the environment (django-environ).

With nothing set the app runs embedded: SQLite and kombu's filesystem broker, so
`make run` needs only Python. DATABASE_URL and CELERY_BROKER_URL switch it to
PostgreSQL and Redis with the same code.
"""

import os
from datetime import timedelta
from pathlib import Path

import environ

from pipelines.detection.config import DEFAULT_MODEL

# Presidio's email recognizer fetches the public suffix list unless this is empty;
# detection must make no network call, so set it before anything imports presidio.
os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.Env()

VAR_DIR = Path(env.str("ANONYMIZER_VAR_DIR", default=str(BASE_DIR / "var")))

DEBUG = env.bool("DJANGO_DEBUG", default=False)


def _embedded_secret(name: str, make) -> str:
    """A secret generated once into the private var directory (embedded runs only)."""
    path = VAR_DIR / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        path.write_text(make())
        path.chmod(0o600)
    return path.read_text().strip()


# The embedded default only ever listens on loopback and generates its key once;
# a deployment sets DJANGO_SECRET_KEY (and ANONYMIZER_EMBEDDED_KEY=false to make a
# missing key an error).
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="")
if not SECRET_KEY:
    if not env.bool("ANONYMIZER_EMBEDDED_KEY", default=True):
        raise RuntimeError("DJANGO_SECRET_KEY must be set")
    import secrets

    SECRET_KEY = _embedded_secret("secret_key", lambda: secrets.token_urlsafe(50))

# Fernet key for corpus-wide pseudonym maps at rest (a re-identification key).
PSEUDONYM_MAP_KEY = env.str("PSEUDONYM_MAP_KEY", default="")
if not PSEUDONYM_MAP_KEY:
    from cryptography.fernet import Fernet

    PSEUDONYM_MAP_KEY = _embedded_secret("pseudonym_map_key", lambda: Fernet.generate_key().decode())

ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "anonymizer_site.apps.SiteConfig",
    "django_htmx",
    "template_partials",
    # Login throttling: failed attempts per user name and address, lock-out, and an
    # admin unlock (deleting the attempts in the admin, or `manage.py axes_reset`).
    "axes",
    "ingestion",
    "review",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    "anonymizer_site.middleware.NoStoreMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its lock-out page.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # First: refuses (and counts) logins of a locked-out user name or address.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "anonymizer_site.urls"
WSGI_APPLICATION = "anonymizer_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The worker is a second process writing to the same file: WAL and immediate
    # transactions avoid "database is locked" under that light concurrency.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA busy_timeout=5000;",
    }
    # Tests on the embedded default use a file, not memory: the real-worker test
    # runs a second process on it, as `make run` does. One file per test run.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test_{os.getpid()}.sqlite3")}
else:
    # One test database per run, so two runs on one server (a developer's and CI's,
    # or the services and embedded runs of `make test` side by side) never collide.
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{os.getpid()}"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Accounts reach personal data: Django's four validators, and a longer minimum.
PASSWORD_MIN_LENGTH = env.int("PASSWORD_MIN_LENGTH", default=12)
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": PASSWORD_MIN_LENGTH},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Login throttling (django-axes): this many failures lock the user name, and the
# address, out for LOGIN_LOCKOUT_MINUTES; a superuser unlocks earlier in the admin.
LOGIN_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
LOGIN_LOCKOUT_MINUTES = env.int("LOGIN_LOCKOUT_MINUTES", default=30)
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_LOCKOUT_MINUTES)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# Behind a proxy, set AXES_IPWARE_META_PRECEDENCE_ORDER to the header it sets.
AXES_VERBOSE = False

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# Static files are served from the source folders too, so no collectstatic step
# is needed for the embedded run.
WHITENOISE_USE_FINDERS = True

# Uploaded originals and export zips hold personal data: they live outside any
# served directory and are only streamed through views that check access.
PRIVATE_STORAGE_ROOT = Path(env.str("PRIVATE_STORAGE_ROOT", default=str(VAR_DIR / "private")))

# Limits on every input (README "Limits"). Exceeding one fails that item alone,
# with a message naming the setting and its value.
_MB = 1024 * 1024
MAX_UPLOAD_BYTES = env.int("MAX_UPLOAD_BYTES", default=50 * _MB)
MAX_UPLOAD_DOCUMENTS = env.int("MAX_UPLOAD_DOCUMENTS", default=1000)
# Uploads by one user within this many seconds share MAX_UPLOAD_DOCUMENTS (0: each
# upload has its own): uploading again at once does not pass the cap.
UPLOAD_BUDGET_WINDOW_SECONDS = env.int("UPLOAD_BUDGET_WINDOW_SECONDS", default=60)
MAX_PDF_PAGES = env.int("MAX_PDF_PAGES", default=1000)
MAX_PDF_STREAM_BYTES = env.int("MAX_PDF_STREAM_BYTES", default=32 * _MB)
# All of one PDF's streams together (fonts, /ToUnicode maps, images, object
# streams, encrypted ones after decryption), counted before the parser runs.
MAX_PDF_INFLATED_MB = env.int("MAX_PDF_INFLATED_MB", default=128)
MAX_PDF_PARSE_MEMORY_MB = env.int("MAX_PDF_PARSE_MEMORY_MB", default=1024)
MAX_PDF_PARSE_SECONDS = env.int("MAX_PDF_PARSE_SECONDS", default=120)
MAX_DOCUMENT_CHARS = env.int("MAX_DOCUMENT_CHARS", default=3_000_000)
MAX_CSV_CELL_CHARS = env.int("MAX_CSV_CELL_CHARS", default=3_000_000)
MAX_CORPUS_PATTERNS = env.int("MAX_CORPUS_PATTERNS", default=50)
MAX_PATTERN_LENGTH = env.int("MAX_PATTERN_LENGTH", default=500)
MAX_PATTERN_PROGRAM_SIZE = env.int("MAX_PATTERN_PROGRAM_SIZE", default=20_000)
CORPUS_PATTERN_BUDGET_SECONDS = env.float("CORPUS_PATTERN_BUDGET_SECONDS", default=5.0)
MAX_CORPUS_PATTERN_MATCHES = env.int("MAX_CORPUS_PATTERN_MATCHES", default=5000)
# The longest match a corpus pattern may make: patterns run over windows of twice
# this, so one match (with its captures) never holds more of the document.
MAX_CORPUS_PATTERN_MATCH_CHARS = env.int("MAX_CORPUS_PATTERN_MATCH_CHARS", default=1000)
# A corpus's allow list and deny list, each: entries, characters of one entry, all characters.
MAX_LIST_ENTRIES = env.int("MAX_LIST_ENTRIES", default=5000)
MAX_LIST_ENTRY_CHARS = env.int("MAX_LIST_ENTRY_CHARS", default=200)
MAX_LIST_CHARS = env.int("MAX_LIST_CHARS", default=200_000)
# Uploads are streamed to temporary files above this size, and each file is
# counted while it arrives: one over MAX_UPLOAD_BYTES is dropped unread.
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * _MB
FILE_UPLOAD_HANDLERS = [
    "ingestion.upload_handlers.SizeLimitUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * _MB
DATA_UPLOAD_MAX_NUMBER_FILES = env.int("MAX_UPLOAD_FILES", default=100)
# A reviewer's assignment idle this long goes back to the corpus queue.
REVIEW_IDLE_MINUTES = env.int("REVIEW_IDLE_MINUTES", default=60)
# Work queue (issue 16): a pending span scored below this calibrated probability is
# "low-score"; documents with the most such spans (then the most pending) come first.
REVIEW_QUEUE_LOW_SCORE = env.float("REVIEW_QUEUE_LOW_SCORE", default=0.5)
# Estimated minutes left: spans decided per active minute, measured on the corpus's
# last REVIEW_RATE_WINDOW decision events; a pause longer than REVIEW_RATE_MAX_GAP_SECONDS
# between two operations is not review time. Below REVIEW_RATE_MIN_OPERATIONS timed
# operations the default rate (an assumption, not a measurement) is used.
REVIEW_RATE_WINDOW = env.int("REVIEW_RATE_WINDOW", default=2000)
REVIEW_RATE_MAX_GAP_SECONDS = env.int("REVIEW_RATE_MAX_GAP_SECONDS", default=300)
REVIEW_RATE_MIN_OPERATIONS = env.int("REVIEW_RATE_MIN_OPERATIONS", default=10)
REVIEW_DEFAULT_SPANS_PER_MINUTE = env.float("REVIEW_DEFAULT_SPANS_PER_MINUTE", default=6.0)
# The history page lists at most this many filtered candidates (then "and N more").
REVIEW_HISTORY_FILTERED_MAX = env.int("REVIEW_HISTORY_FILTERED_MAX", default=500)
# At most this many filtered candidates (names, ages, dates, places, organizations,
# IDs) are shown muted in a document's text, for a reviewer to take with one key.
REVIEW_MUTED_MAX = env.int("REVIEW_MUTED_MAX", default=300)
# Longest generalisation a reviewer may give a quasi-identifier (issue 18).
QUASI_GENERALISED_MAX_CHARS = env.int("QUASI_GENERALISED_MAX_CHARS", default=120)
# Documents listed on the residual-risk page (the totals still count them all).
RESIDUAL_RISK_PAGE_ROWS = env.int("RESIDUAL_RISK_PAGE_ROWS", default=500)
# Corpus memory (issue 17): a surface form rejected in at least this many approved
# documents of a corpus, and never accepted there, is suppressed in its detection.
CORPUS_SUPPRESSION_MIN_DOCUMENTS = env.int("CORPUS_SUPPRESSION_MIN_DOCUMENTS", default=2)
# The memory page lists at most this many names, suppressions and removals each;
# a removal's reason is at most this long.
CORPUS_MEMORY_PAGE_ROWS = env.int("CORPUS_MEMORY_PAGE_ROWS", default=500)
# Documents named per memory row (the rest are counted): the page and its one
# names query stay bounded however many documents a name was accepted in.
CORPUS_MEMORY_DOCUMENTS_PER_ROW = env.int("CORPUS_MEMORY_DOCUMENTS_PER_ROW", default=10)
CORPUS_MEMORY_REASON_CHARS = env.int("CORPUS_MEMORY_REASON_CHARS", default=500)
# Corpus models (issue 17): where each corpus's fine-tuned NER versions are saved; a
# training run starts every N approved documents not yet trained on (0: only by hand);
# the most recently approved HOLDOUT_FRACTION (at least MIN_HOLDOUT) judge the
# candidate; training stops at MAX_STEPS batches or TIME_LIMIT seconds; the candidate
# becomes active only with a higher leak recall than its base and a precision at most
# MAX_PRECISION_LOSS below it.
CORPUS_MODELS_DIR = Path(env.str("CORPUS_MODELS_DIR", default=str(VAR_DIR / "corpus_models")))
CORPUS_TRAINING_EVERY_N_APPROVED = env.int("CORPUS_TRAINING_EVERY_N_APPROVED", default=0)
CORPUS_TRAINING_HOLDOUT_FRACTION = env.float("CORPUS_TRAINING_HOLDOUT_FRACTION", default=0.2)
CORPUS_TRAINING_MIN_HOLDOUT = env.int("CORPUS_TRAINING_MIN_HOLDOUT", default=1)
CORPUS_TRAINING_MAX_STEPS = env.int("CORPUS_TRAINING_MAX_STEPS", default=200)
# A corpus model fine-tunes a spaCy NER. A corpus that detects with an encoder model
# (open, the default, or research-trf: names come from the encoder, which is not
# trained per corpus) fine-tunes this model's NER instead; the candidate must still
# beat the corpus's own model on the held-out documents to replace it.
CORPUS_TRAINING_ENCODER_BASE = env.str("CORPUS_TRAINING_ENCODER_BASE", default="sm")
CORPUS_TRAINING_TIME_LIMIT_SECONDS = env.float("CORPUS_TRAINING_TIME_LIMIT_SECONDS", default=900.0)
CORPUS_MODEL_MAX_PRECISION_LOSS = env.float("CORPUS_MODEL_MAX_PRECISION_LOSS", default=0.02)
# Below this many gold names in the held-out documents the scores judge nothing
# (leak recall is 1.0 on zero names): the candidate is refused.
CORPUS_MODEL_MIN_HELDOUT_NAMES = env.int("CORPUS_MODEL_MIN_HELDOUT_NAMES", default=3)
CORPUS_MODELS_PAGE_ROWS = env.int("CORPUS_MODELS_PAGE_ROWS", default=100)
# Files are kept for the newest N finished versions besides the active one and the
# one active before it (each holds a model and its training documents' text); older
# ones are pruned when a run finishes, their rows kept with a message (they can no
# longer be activated).
CORPUS_MODEL_KEEP_VERSIONS = env.int("CORPUS_MODEL_KEEP_VERSIONS", default=5)
# Progress is saved every N training steps (for display; a write per batch is waste).
CORPUS_TRAINING_PROGRESS_EVERY = env.int("CORPUS_TRAINING_PROGRESS_EVERY", default=5)
CORPUS_TRAINING_BATCH_SIZE = env.int("CORPUS_TRAINING_BATCH_SIZE", default=8)
CORPUS_TRAINING_LEARN_RATE = env.float("CORPUS_TRAINING_LEARN_RATE", default=0.0005)
CORPUS_TRAINING_DROPOUT = env.float("CORPUS_TRAINING_DROPOUT", default=0.1)
# A training example is a window of at most this many characters of a document, cut
# at line ends (pipelines/detection/chunks.py): a batch holds BATCH_SIZE of them, so
# a step's memory and time stay the same whatever a document's length. The default is
# detection's chunk: 2,000 trained faster steps but missed more on the Ferguson bench.
CORPUS_TRAINING_EXAMPLE_CHARS = env.int("CORPUS_TRAINING_EXAMPLE_CHARS", default=20_000)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "corpus_list"
LOGOUT_REDIRECT_URL = "login"

SESSION_COOKIE_HTTPONLY = True
# A session fit for personal data: a working day, not Django's two weeks.
SESSION_AGE_HOURS = env.int("SESSION_AGE_HOURS", default=8)
SESSION_COOKIE_AGE = SESSION_AGE_HOURS * 3600
SESSION_COOKIE_SAMESITE = "Lax"
# Behind HTTPS (any real deployment) set DJANGO_SECURE=true: secure cookies, HSTS,
# redirects. The embedded default serves plain HTTP on loopback.
if env.bool("DJANGO_SECURE", default=False):
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = True
    SECURE_HSTS_SECONDS = 31536000
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# A strict Content-Security-Policy (django-csp): scripts and styles from this
# site's static files only, no inline script, style attribute or eval. htmx and
# review.js are files; label colours are classes (static/labels.css).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# NLP
SPACY_MODEL = env.str("SPACY_MODEL", default=DEFAULT_MODEL)

# Celery. The embedded default is kombu's filesystem transport: a real worker
# process and a real queue, with no server to install.
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    _queue = VAR_DIR / "broker"
    for _sub in ("queue", "processed", "control"):
        (_queue / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue / "queue"),
        "data_folder_out": str(_queue / "queue"),
        "processed_folder": str(_queue / "processed"),
        "store_processed": False,
        # Its exchange tables otherwise land in ./control, in the checkout.
        "control_folder": str(_queue / "control"),
    }
# A named queue lets several deployments (or test runs) share one Redis.
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="anonymizer")
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
# A worker killed mid-task (out of memory, SIGKILL) puts its message back: the
# task's claim on the row tells a redelivery from a first delivery (see
# ingestion.work_queue.claim) and stops at TASK_MAX_ATTEMPTS.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A broker that is down fails a publish in about a second, not a minute: the row
# stays queued and the sweeper queues it again when the broker is back.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}
if CELERY_BROKER_URL.startswith("redis://"):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "socket_connect_timeout": 2,
        "socket_timeout": 5,
        # Ten priority lists, 0 first: a document's priority falls as its corpus's
        # backlog doubles (ingestion.task_policy.fair_priority), so one corpus's
        # large upload does not make another corpus's single document wait for it.
        "priority_steps": list(range(10)),
    }
# Fairness between corpora: each document task's priority comes from its
# corpus's backlog when it is queued. With prefetch 1 a worker holds no message
# it has not started, so the next free worker takes the most urgent one.
CELERY_TASK_ROUTES = ("ingestion.task_policy.fair_priority",)
# The work queue's limits (ingestion/work_queue.py, for documents, re-annotations,
# exports and corpus-model training runs): a row waiting this long for a worker is
# queued again; one that killed its worker this many times fails.
TASK_MAX_ATTEMPTS = env.int("TASK_MAX_ATTEMPTS", default=2)
QUEUED_TIMEOUT_MINUTES = env.int("QUEUED_TIMEOUT_MINUTES", default=10)
SWEEP_INTERVAL_SECONDS = env.int("SWEEP_INTERVAL_SECONDS", default=60)
# A worker holding a row beats every WORKER_HEARTBEAT_SECONDS (from a thread, so a
# long step without progress beats too); one silent for WORKER_LOST_AFTER seconds
# is lost (the whole worker died, its message with it) and the row is taken over
# by the next sweep, or at once by an admin's "again". With the defaults a killed
# worker's document waits at most WORKER_LOST_AFTER + SWEEP_INTERVAL_SECONDS (4 min).
WORKER_LOST_AFTER = env.int("WORKER_LOST_AFTER", default=180)
WORKER_HEARTBEAT_SECONDS = env.int("WORKER_HEARTBEAT_SECONDS", default=20)
CELERY_BEAT_SCHEDULE = {
    "sweep": {"task": "review.sweep", "schedule": float(SWEEP_INTERVAL_SECONDS)},
}
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=30 * 60)
CELERY_TASK_TIME_LIMIT = CELERY_TASK_SOFT_TIME_LIMIT + 60
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
    "loggers": {"presidio-analyzer": {"level": "ERROR"}},
}
