stackcollapse-sample invalid-samples-field.txt
