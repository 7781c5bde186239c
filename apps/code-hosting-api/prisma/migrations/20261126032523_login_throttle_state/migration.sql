-- CreateTable
CREATE TABLE "login_failures" (
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "last_failure_at" TIMESTAMPTZ(6) NOT NULL,
    "blocked_until" TIMESTAMPTZ(6),

    CONSTRAINT "login_failures_pkey" PRIMARY KEY ("kind","key")
);

-- CreateTable
CREATE TABLE "trusted_logins" (
    "account" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "trusted_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "trusted_logins_pkey" PRIMARY KEY ("account","address")
);

-- CreateIndex
CREATE INDEX "login_failures_kind_last_failure_at_idx" ON "login_failures"("kind", "last_failure_at");

-- CreateIndex
CREATE INDEX "trusted_logins_trusted_at_idx" ON "trusted_logins"("trusted_at");
