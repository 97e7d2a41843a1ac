# The india category's own strings, loaded through its module's localesDir (shared strings: locales/ne.ftl).
india-circles-failed = सर्कलहरूको सूची ल्याउन सकिएन ({ $reason })। कुनै रकम काटिएको छैन। केही बेरपछि /recharge पठाएर फेरि प्रयास गर्नुहोस्।
india-ask-circle = कनेक्सन कुन टेलिकम सर्कल (राज्य) मा छ?
india-ask-kind = 🇮🇳 भारत: के रिचार्ज गर्ने?
india-kind-prepaid = 📱 प्रिपेड मोबाइल
india-kind-postpaid = 🧾 पोस्टपेड मोबाइल
india-kind-dth = 📡 DTH (टिभी)
india-ask-operator = { $kind }: कुन अपरेटर?
india-ask-number = कुन मोबाइल नम्बर? (10 अङ्क; +91 राख्न मिल्छ)
india-ask-dth-id-first = तपाईंको DTH सब्सक्राइबर आईडी (10 अङ्क) वा दर्ता गरिएको मोबाइल नम्बर:
india-ask-operator-suggested = { $number } { $suggestion } को नम्बर शृङ्खलामा पर्छ। नम्बर अर्को अपरेटरमा सर्न सक्छ, त्यसैले यो सुझाव मात्र हो: यसलाई छान्नुहोस्, वा आफ्नो अपरेटर छान्नुहोस्।
india-suggested = { $suggestion } (सुझाव)
india-ask-dth-id = तपाईंको { $operator } सब्सक्राइबर आईडी (10 अङ्क) वा दर्ता गरिएको मोबाइल नम्बर:
india-plan = { $amount } · { $details }
india-ask-plan = { $number } का लागि प्लान छान्नुहोस्, वा { $min } देखि { $max } सम्मको रकम टाइप गर्नुहोस्:
india-plans-unavailable = अहिले प्लानको सूची उपलब्ध छैन; तपाईं रकम टाइप गर्न सक्नुहुन्छ।
india-ask-amount = { $number } का लागि कति? { $min } देखि { $max } सम्मको रकम टाइप गर्नुहोस्, वा छान्नुहोस्:
india-confirm-circle = सर्कल: { $circle }
india-dth-bill-title = 📡 { $operator } ग्राहक { $number }: { $name }
india-dth-bill-amount = मासिक रिचार्ज: { $amount }
india-dth-bill-balance = बाँकी रकम: { $amount }
india-dth-bill-due = अर्को रिचार्जको मिति: { $date }
india-dth-bill-rejected = त्यो ग्राहक भेटिएन: { $reason }
    कृपया सब्सक्राइबर आईडी वा दर्ता गरिएको मोबाइल नम्बर जाँच गर्नुहोस्।
india-dth-pay-bill = मासिक रिचार्ज तिर्नुहोस्: { $amount }
india-confirm-subscriber = ग्राहक: { $name }
flow-edit-plan = ✏️ प्लान / रकम
