# The electricity category's own strings, loaded through its module's localesDir (shared strings: locales/ne.ftl).
electricity-ask-operator = 💡 कुन विद्युत सेवा प्रदायक?
electricity-ask-office = 💡 { $operator }: तपाईंको मिटर कुन वितरण केन्द्र (कार्यालय) अन्तर्गत छ?
electricity-ask-sc = { $office } मा तपाईंको SC नम्बर (सर्भिस कनेक्सन नम्बर, बिलमा छ):
electricity-ask-customer = तपाईंको ग्राहक आईडी (बिलमा छ):
electricity-ask-phone = यो बिलका लागि फोन नम्बर: मोबाइल (9 बाट सुरु हुने 10 अङ्क) वा ल्यान्डलाइन (क्षेत्र कोडसहित 7 देखि 9 अङ्क)।
electricity-phone-invalid = यो फोन नम्बर होइन: मोबाइलमा 9 बाट सुरु हुने 10 अङ्क हुन्छन्; ल्यान्डलाइनमा (सुरुको 0 बाहेक) 7 देखि 9 अङ्क हुन्छन् र 9 बाट सुरु हुँदैन।
electricity-bill-rejected = विद्युत कार्यालयले यो बिल जाँच्न सकेन: { $reason }
    कृपया SC नम्बर र ग्राहक आईडी जाँच्नुहोस्।
electricity-bill-title = 💡 { $name } को बिजुलीको बिल (SC { $sc })
electricity-confirm-sc = SC नम्बर: { $sc }
electricity-confirm-phone = फोन: { $phone }
