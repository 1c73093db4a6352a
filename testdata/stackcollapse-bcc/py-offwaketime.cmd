stackcollapse-bcc --kernel --pid py-offwaketime.txt
