# The internet category's own strings, loaded through its module's localesDir (shared strings: locales/ne.ftl).
internet-ask-isp = 🌐 कुन इन्टरनेट सेवा प्रदायक?
internet-ask-username = तपाईंको { $operator } युजरनेम (ग्राहक आईडी):
internet-username-rejected = सेवा प्रदायकको जवाफ: "{ $message }"
    कृपया युजरनेम जाँचेर फेरि पठाउनुहोस्।
internet-no-packages = { $operator } मा अहिले यो युजरनेमका लागि कुनै प्याकेज छैन। कृपया फेरि सेवा प्रदायक छान्नुहोस्।
internet-ask-package = { $username } का लागि { $operator } प्याकेजहरू ({ $count })। एउटा छान्नुहोस्:
internet-package = { $name } · { $amount }
internet-invalid-username = युजरनेममा अक्षर, अङ्क र . _ - / @ मात्र हुन्छन् (खाली ठाउँ हुँदैन)।
