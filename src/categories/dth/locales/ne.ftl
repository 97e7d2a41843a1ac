# The dth category's own strings, loaded through its module's localesDir (shared strings: locales/ne.ftl).
dth-ask-operator = 📺 कुन टिभी (DTH) अपरेटर?
dth-ask-customer = तपाईंको { $operator } ग्राहक आईडी (बिलमा वा सेट-टप बक्सको स्क्रिनमा हुन्छ):
dth-customer-rejected = अपरेटरको जवाफ: "{ $message }"
    कृपया ग्राहक आईडी जाँचेर फेरि पठाउनुहोस्।
dth-customer-info = { $operator } ग्राहक { $id }:
    { $info }
dth-no-packages = { $operator } मा अहिले यो ग्राहकका लागि कुनै प्याकेज छैन। कृपया फेरि अपरेटर छान्नुहोस्।
dth-ask-package = प्याकेज छान्नुहोस् ({ $count }):
dth-package = { $name } · { $amount }
dth-invalid-customer = ग्राहक आईडीमा अक्षर, अङ्क र . _ - / @ मात्र हुन्छन् (खाली ठाउँ हुँदैन)।
