# The dth category's own strings, loaded through its module's localesDir (shared strings: locales/hi.ftl).
dth-ask-operator = 📺 कौन सा टीवी (DTH) ऑपरेटर?
dth-ask-customer = आपकी { $operator } ग्राहक आईडी (बिल पर या सेट-टॉप बॉक्स की स्क्रीन पर):
dth-customer-rejected = ऑपरेटर का जवाब: "{ $message }"
    कृपया ग्राहक आईडी जाँचकर फिर से भेजिए।
dth-customer-info = { $operator } ग्राहक { $id }:
    { $info }
dth-no-packages = { $operator } के पास अभी इस ग्राहक के लिए कोई पैकेज नहीं है। कृपया फिर से ऑपरेटर चुनिए।
dth-ask-package = पैकेज चुनिए ({ $count }):
dth-package = { $name } · { $amount }
dth-invalid-customer = ग्राहक आईडी में केवल अक्षर, अंक और . _ - / @ होते हैं (खाली जगह नहीं)।
