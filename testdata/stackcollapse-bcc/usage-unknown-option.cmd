stackcollapse-bcc --frobnicate
