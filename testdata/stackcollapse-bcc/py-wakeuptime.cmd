stackcollapse-bcc --kernel py-wakeuptime.txt
