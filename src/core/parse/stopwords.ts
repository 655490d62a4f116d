// Stop words of the corpus's main languages, lower case: the pith features count them as one union set (a word of
// one language that is a content word in another is rare enough to ignore; text-stats.ts), and language detection
// compares their hits per language (metadata-language.ts). Japanese and Chinese need none: CJK characters count
// one word each, and the writing system names the language. (The paper feature set keeps the reference's own
// English list, text-stats.ts PAPER_STOPWORDS.)

const STOPWORD_LISTS: Readonly<Record<string, string>> = {
  en:
    'a about above after again against all also am an and any are as at be because been before being below between ' +
    'both but by can could did do does doing down during each few for from further had has have having he her here ' +
    'hers him his how i if in into is it its just me more most my no nor not of off on once only or other our ours ' +
    'out over own same she should so some such than that the their them then there these they this those through to ' +
    'too under until up very was we were what when where which while who whom why will with would you your',
  de:
    'aber alle als also am an auch auf aus bei bin bis bist da damit dann das dass dem den der des dich die dir doch ' +
    'dort du durch ein eine einem einen einer eines er es für hat hatte ich ihm ihn ihr im in ist ja kann kein mich ' +
    'mir mit nach nicht noch nur ob oder ohne sich sie sind so über um und uns unter vom von vor war waren was wenn ' +
    'wer wie wir wird wurde zu zum zur',
  fr:
    'à au aux avec ce ces cette dans de des du elle en est et eux il ils je la le les leur lui ma mais me même mes ' +
    'moi mon ne nos notre nous on ont ou où par pas pour qu que qui sa se ses son sont sur ta te tes toi ton tu un ' +
    'une vos votre vous y été être avait sans plus comme tout',
  es:
    'a al algo como con de del donde el ella ellos en entre era es esa ese eso esta este esto están fue ha hay la las ' +
    'le les lo los más me mi muy no nos o para pero por porque que se sea ser si sin sobre su sus también te tu un ' +
    'una uno y ya yo',
  it:
    'a ai al alla alle anche che chi ci come con da dal dalla de degli dei del della delle di e è gli ha hanno i il ' +
    'in io la le lei lo loro lui ma mi ne negli nel nella noi non o per più quale quando questa questo se si sono ' +
    'su sua suo tra un una uno voi',
  pt:
    'a ao aos as com como da das de do dos e ela ele eles em entre era essa esse está eu foi isso já mais mas me ' +
    'mesmo muito na nas não nem no nos o os ou para pela pelo por quando que se sem seu sua são também te um uma você',
  nl:
    'aan al als bij dan dat de die dit door een en er had heb heeft het hij hoe ik in is je kan maar me met mij ' +
    'naar niet nog nu of om ons ook op over te tot uit van voor was wat we werd wij wordt zal ze zich zij zijn zo',
  ru:
    'а без бы был была были было в вам вас во вот все всё вы где да для до его ее её если есть еще ещё же за и из ' +
    'или им их к как когда кто ли мы на над не него нет ни но ну о об он она они оно от по под после при про с со ' +
    'так также там то того только тот у уже чем что эта это этот я',
  pl:
    'a aby ale bez bo by być był była było co czy dla do gdy go i ich jak jako jest jego jej już ku lub ma mi na nad ' +
    'nie nim o od oraz po pod przez przy się są ta tak te tego ten to tu w we z za ze że',
  sv:
    'av blev de dem den denna det detta du där efter eller en ett för från har hade han hon honom hur i inte jag ' +
    'kan man med men mig min mot nu när och om oss på så sin sig som till under upp ut var vi vid vad är att',
};

export const STOPWORDS_BY_LANGUAGE: Readonly<Record<string, ReadonlySet<string>>> = Object.freeze(
  Object.fromEntries(Object.entries(STOPWORD_LISTS).map(([lang, words]) => [lang, new Set(words.split(' '))])),
);
