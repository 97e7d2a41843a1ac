# The india category's own strings, loaded through its module's localesDir (shared strings: locales/hi.ftl).
india-circles-failed = सर्किलों की सूची नहीं मिल सकी ({ $reason })। कोई पैसा नहीं कटा। थोड़ी देर बाद /recharge भेजकर फिर कोशिश कीजिए।
india-ask-circle = कनेक्शन किस टेलीकॉम सर्किल (राज्य) का है?
india-ask-kind = 🇮🇳 भारत: क्या रिचार्ज करना है?
india-kind-prepaid = 📱 प्रीपेड मोबाइल
india-kind-postpaid = 🧾 पोस्टपेड मोबाइल
india-kind-dth = 📡 DTH (टीवी)
india-ask-operator = { $kind }: कौन सा ऑपरेटर?
india-ask-number = कौन सा मोबाइल नंबर? (10 अंक; +91 के साथ भी चलेगा)
india-ask-dth-id-first = आपकी DTH सब्सक्राइबर आईडी (10 अंक) या रजिस्टर्ड मोबाइल नंबर:
india-ask-operator-suggested = { $number } { $suggestion } की नंबर सीरीज़ में है। नंबर दूसरे ऑपरेटर पर जा सकता है, इसलिए यह सिर्फ़ सुझाव है: इसे चुनिए, या अपना ऑपरेटर चुनिए।
india-suggested = { $suggestion } (सुझाव)
india-ask-dth-id = आपकी { $operator } सब्सक्राइबर आईडी (10 अंक) या रजिस्टर्ड मोबाइल नंबर:
india-plan = { $amount } · { $details }
india-ask-plan = { $number } के लिए प्लान चुनिए, या { $min } से { $max } तक की राशि लिखिए:
india-plans-unavailable = प्लान की सूची अभी उपलब्ध नहीं है; आप राशि लिख सकते हैं।
india-ask-amount = { $number } के लिए कितना? { $min } से { $max } तक की राशि लिखिए, या चुनिए:
india-confirm-circle = सर्किल: { $circle }
india-dth-bill-title = 📡 { $operator } ग्राहक { $number }: { $name }
india-dth-bill-amount = मासिक रिचार्ज: { $amount }
india-dth-bill-balance = बचा हुआ बैलेंस: { $amount }
india-dth-bill-due = अगला रिचार्ज इस तारीख़ तक: { $date }
india-dth-bill-rejected = वह ग्राहक नहीं मिला: { $reason }
    कृपया सब्सक्राइबर आईडी या रजिस्टर्ड मोबाइल नंबर जाँचिए।
india-dth-pay-bill = मासिक रिचार्ज भरिए: { $amount }
india-confirm-subscriber = ग्राहक: { $name }
flow-edit-plan = ✏️ प्लान / राशि
