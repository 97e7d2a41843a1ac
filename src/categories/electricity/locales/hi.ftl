# The electricity category's own strings, loaded through its module's localesDir (shared strings: locales/hi.ftl).
electricity-ask-operator = 💡 कौन सा बिजली सेवा प्रदाता?
electricity-ask-office = 💡 { $operator }: आपका मीटर किस वितरण केंद्र (कार्यालय) के अंतर्गत है?
electricity-ask-sc = { $office } में आपका SC नंबर (सर्विस कनेक्शन नंबर, बिल पर):
electricity-ask-customer = आपकी ग्राहक आईडी (बिल पर):
electricity-ask-phone = इस बिल के लिए फ़ोन नंबर: मोबाइल (9 से शुरू होने वाले 10 अंक) या लैंडलाइन (एरिया कोड सहित 7 से 9 अंक)।
electricity-phone-invalid = यह फ़ोन नंबर नहीं है: मोबाइल में 9 से शुरू होने वाले 10 अंक होते हैं; लैंडलाइन में (शुरू के 0 के बिना) 7 से 9 अंक होते हैं और वह 9 से शुरू नहीं होता।
electricity-bill-rejected = बिजली कार्यालय यह बिल नहीं जाँच सका: { $reason }
    कृपया SC नंबर और ग्राहक आईडी जाँचिए।
electricity-bill-title = 💡 { $name } का बिजली का बिल (SC { $sc })
electricity-confirm-sc = SC नंबर: { $sc }
electricity-confirm-phone = फ़ोन: { $phone }
