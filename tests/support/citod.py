"""A small navigate KB (KVRET columns) the CI-ToD tests write their own dialogues against."""

NAV_KB = [
    {"traffic_info": "no_traffic", "address": "578_arbol_dr", "distance": "3_miles", "poi_type": "rest_stop",
     "poi": "hotel_keen"},
    {"traffic_info": "heavy_traffic", "address": "329_el_camino_real", "distance": "5_miles",
     "poi_type": "rest_stop", "poi": "the_westin"},
    {"traffic_info": "moderate_traffic", "address": "408_university_ave", "distance": "2_miles",
     "poi_type": "grocery_store", "poi": "trader_joes"},
]
