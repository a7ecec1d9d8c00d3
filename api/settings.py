"""The one place the service reads its configuration from the environment.

Every process (API, referee, projection runner, CLI) builds one `Settings()` at start-up and passes it on;
nothing else reads environment variables. `deploy/docker-compose.yml` uses exactly these names.

With neither KAFKA_BOOTSTRAP_SERVERS nor DATABASE_URL set, the service runs embedded on one machine: a local
append-only log and SQLite under POKERAUDIT_DATA_DIR.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from domain.clock import PRODUCTION_SKEW
from ingest.log import BATCH_MAX

Mode = Literal["embedded", "kafka+postgres"]


class Settings(BaseSettings):
    """Environment names are given per field; no prefix is applied, so KAFKA_BOOTSTRAP_SERVERS and
    DATABASE_URL keep the names operators already use."""

    model_config = SettingsConfigDict(
        case_sensitive=True,
        extra="ignore",
        frozen=True,
        validate_by_name=True,
        validate_by_alias=True,
    )

    kafka_bootstrap_servers: str | None = Field(
        default=None,
        validation_alias="KAFKA_BOOTSTRAP_SERVERS",
        description="host:port[,host:port...] of the Kafka log of record; unset means the embedded log",
    )
    database_url: str | None = Field(
        default=None,
        validation_alias="DATABASE_URL",
        description="postgresql://user[:password]@host:port/dbname; unset means embedded SQLite",
    )
    data_dir: Path = Field(
        default=Path("./var"),
        validation_alias="POKERAUDIT_DATA_DIR",
        description="where the embedded log and SQLite files live",
    )
    topic: str = Field(
        default="pokeraudit.events",
        min_length=1,
        validation_alias="POKERAUDIT_TOPIC",
        description="the Kafka topic of record",
    )
    rejections_topic: str = Field(
        default="pokeraudit.rejections",
        min_length=1,
        validation_alias="POKERAUDIT_REJECTIONS_TOPIC",
        description="where the referee publishes rejected events with their rule citations",
    )
    checkpoints_topic: str = Field(
        default="pokeraudit.checkpoints",
        min_length=1,
        validation_alias="POKERAUDIT_CHECKPOINTS_TOPIC",
        description="where the referee publishes each transaction's checkpoint (the heads it moved), the anchor"
        " `pokeraudit verify` checks the store against",
    )
    heavy_reads: int = Field(
        default=2,
        ge=1,
        le=64,
        validation_alias="POKERAUDIT_HEAVY_READS",
        description="protocol reads (JSON, HTML, PDF) and snapshot verifications answered at once per process;"
        " more wait for a turn without holding a thread",
    )
    heavy_reads_wait_s: float = Field(
        default=10.0,
        ge=0,
        le=120,
        validation_alias="POKERAUDIT_HEAVY_READS_WAIT_S",
        description="how long a heavy read waits for its turn before it is answered 503 with Retry-After",
    )
    partitions: int = Field(
        default=6,
        ge=1,
        validation_alias="POKERAUDIT_PARTITIONS",
        description="partitions of the topic of record when the service creates it",
    )
    rulebook: str = Field(
        default="bfsp",
        min_length=1,
        validation_alias="POKERAUDIT_RULEBOOK",
        description="rulebook applied to events that do not name one",
    )
    jwt_secret: SecretStr | None = Field(
        default=None,
        validation_alias="POKERAUDIT_JWT_SECRET",
        description="HMAC key for API tokens; the API refuses to serve kafka+postgres mode without it",
    )
    public_read: bool = Field(
        default=False,
        validation_alias="POKERAUDIT_PUBLIC_READ",
        description="let requests without a token read as viewers (hole cards sealed); the demo turns it on",
    )
    public_delay_minutes: float = Field(
        default=0,
        ge=0,
        le=7 * 24 * 60,
        validation_alias="POKERAUDIT_PUBLIC_DELAY_MINUTES",
        description="a viewer (and an anonymous public read) sees a hand's hole cards only this many minutes "
        "after it ended, by the service's clock (api/sealing.py)",
    )
    demo_sign_in: bool = Field(
        default=False,
        validation_alias="POKERAUDIT_DEMO_SIGN_IN",
        description="the web app's sign-in page offers a role picker minting demo tokens; the demo turns it on",
    )
    api_host: str = Field(
        default="127.0.0.1",
        validation_alias="POKERAUDIT_API_HOST",
    )
    api_port: int = Field(
        default=8000,
        ge=1,
        le=65535,
        validation_alias="POKERAUDIT_API_PORT",
    )
    referee_batch_max: int = Field(
        default=BATCH_MAX,
        ge=1,
        validation_alias="POKERAUDIT_REFEREE_BATCH_MAX",
        description="most records the referee validates and commits in one PostgreSQL transaction",
    )
    referee_batch_ms: int = Field(
        default=200,
        ge=0,
        validation_alias="POKERAUDIT_REFEREE_BATCH_MS",
        description="longest the referee waits to fill a batch before committing it",
    )
    referee_group: str = Field(
        default="pokeraudit-referee",
        pattern=r"^\S+$",  # a consumer group's id: no blanks (an empty one would join no group at all)
        validation_alias="POKERAUDIT_REFEREE_GROUP",
        description="the Kafka consumer group the referees share the partitions in; a replay referee (the full "
        "restore of the store, docs/OPERATIONS.md) takes a group of its own so it takes no partitions from the live "
        "referees",
    )
    clock_skew_s: float | None = Field(
        default=None,
        ge=0,
        validation_alias="POKERAUDIT_CLOCK_SKEW_S",
        description="how far a record's occurred_at may be from the time the log received it; unset: 300 s with "
        "Kafka and PostgreSQL, none in the embedded mode (its simulations are dated in the past); 0: no bound on "
        "the past (a time more than 5 minutes in the future is refused whatever the setting); imports of past "
        "hand histories keep their own times",
    )
    max_body_bytes: int = Field(
        default=4 * 1024 * 1024,
        ge=1024,
        validation_alias="POKERAUDIT_MAX_BODY_BYTES",
        description="largest request body the API reads (413 beyond): a full batch of 1,000 records fits",
    )

    token_max_hours: float = Field(
        default=24.0,
        gt=0,
        validation_alias="POKERAUDIT_TOKEN_MAX_HOURS",
        description="the longest lifetime a token may have: `pokeraudit token` issues none longer, the API refuses one",
    )
    cors_origins: str = Field(
        default="",
        validation_alias="POKERAUDIT_CORS_ORIGINS",
        description="comma-separated origins browsers may call the API from (e.g. https://floor.example.org); "
        "empty: CORS off",
    )
    rate_submits_per_minute: int = Field(
        default=600,
        ge=0,
        validation_alias="POKERAUDIT_RATE_SUBMITS_PER_MINUTE",
        description="submissions a token may make a minute, per API process (0: no limit)",
    )
    rate_heavy_reads_per_minute: int = Field(
        default=60,
        ge=0,
        validation_alias="POKERAUDIT_RATE_HEAVY_READS_PER_MINUTE",
        description="heavy reads (the protocol, the federation's views) a token may make a minute, per API process "
        "(0: no limit)",
    )

    @field_validator("kafka_bootstrap_servers", "database_url", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        # `KAFKA_BOOTSTRAP_SERVERS=` in a compose file or shell means "not configured".
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("postgresql://", "postgres://")):
            raise ValueError("DATABASE_URL must be a postgresql:// URL")
        return value

    @model_validator(mode="after")
    def _complete_pair(self) -> Settings:
        # Half a production configuration would silently split the log from the store.
        if (self.kafka_bootstrap_servers is None) != (self.database_url is None):
            raise ValueError(
                "set both KAFKA_BOOTSTRAP_SERVERS and DATABASE_URL (kafka+postgres mode) or neither (embedded mode)"
            )
        return self

    @property
    def clock_skew(self) -> timedelta | None:
        """How far a live record's ``occurred_at`` may stray from the log's clock (DESIGN decision 9); None: only
        a time in the future is refused (domain/clock.py)."""
        if self.clock_skew_s is None:
            return PRODUCTION_SKEW if self.mode == "kafka+postgres" else None
        return timedelta(seconds=self.clock_skew_s) if self.clock_skew_s > 0 else None

    @property
    def mode(self) -> Mode:
        return "embedded" if self.kafka_bootstrap_servers is None else "kafka+postgres"


#: The environment variable each field is read from, e.g. ``ENV_NAMES["database_url"] == "DATABASE_URL"``.
ENV_NAMES: dict[str, str] = {
    name: field.validation_alias
    for name, field in Settings.model_fields.items()
    if isinstance(field.validation_alias, str)
}

#: the shortest signing key the API accepts in the kafka+postgres mode (HS256's own hash length)
MIN_SECRET_BYTES = 32

#: What a production (kafka+postgres) deployment must set; everything else has a working default.
REQUIRED_IN_PRODUCTION: tuple[str, ...] = ("KAFKA_BOOTSTRAP_SERVERS", "DATABASE_URL", "POKERAUDIT_JWT_SECRET")
