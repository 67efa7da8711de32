"""The only writers: plan under the lock and apply (`run`), journal each step before taking
it (`journal`, `transaction`), roll back on failure (`executor`), one run at a time (`lock`)."""
