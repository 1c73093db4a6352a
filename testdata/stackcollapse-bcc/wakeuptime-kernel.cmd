stackcollapse-bcc --kernel wakeuptime.txt.gz
