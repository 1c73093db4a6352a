cat sample.txt differences.txt | stackcollapse-sample
