# The internet category's own strings, loaded through its module's localesDir (shared strings: locales/hi.ftl).
internet-ask-isp = 🌐 कौन सा इंटरनेट प्रदाता?
internet-ask-username = आपका { $operator } यूज़रनेम (ग्राहक आईडी):
internet-username-rejected = प्रदाता का जवाब: "{ $message }"
    कृपया यूज़रनेम जाँचकर फिर से भेजिए।
internet-no-packages = { $operator } के पास अभी इस यूज़रनेम के लिए कोई पैकेज नहीं है। कृपया फिर से प्रदाता चुनिए।
internet-ask-package = { $username } के लिए { $operator } पैकेज ({ $count })। एक चुनिए:
internet-package = { $name } · { $amount }
internet-invalid-username = यूज़रनेम में केवल अक्षर, अंक और . _ - / @ होते हैं (खाली जगह नहीं)।
