stackcollapse-bcc --kernel --pid py-profile.txt
