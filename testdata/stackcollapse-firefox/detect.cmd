stackcollapse --detect *.json *.json.gz
