/**
 * The words of a scenario's steps in the languages other tools' specs are written in (spec-kit
 * writes a spec in the language of the person who asks for it; OpenSpec boards may be set to
 * another language): English, Spanish, Portuguese, French, German, Italian, Chinese (simplified
 * and traditional), Japanese, Korean, Russian and Ukrainian.
 */
export const STEP_WORDS = {
  given: ['Given', 'Dado', 'Dada', 'Étant donné', 'Angenommen', 'Gegeben', 'Dato', '给定', '給定', '假设', '假設', '假如', '如果', '前提条件', '前提', '주어진 상황', '주어진 조건', '주어진', 'Дано', 'Допустим', 'Пусть', 'Припустимо'],
  when: ['When', 'Cuando', 'Quando', 'Quand', 'Lorsque', 'Wenn', '当', '當', '操作', '実行', '언제', '동작 시점', '동작', 'Когда', 'Если', 'Коли', 'Якщо'],
  then: ['Then', 'Entonces', 'Então', 'Alors', 'Dann', 'Allora', '那么', '那麼', '则', '則', '期待結果', '結果', '그러면', '기대 결과', '결과', 'Тогда', 'Тоді'],
  and: ['And', 'Y', 'E', 'Et', 'Und', '并且', '並且', 'かつ', '그리고', 'И', 'Также', 'І', 'Та'],
  but: ['But', 'Pero', 'Mas', 'Mais', 'Aber', 'Ma', '但是', 'Но', 'Але'],
};

/** Each step word (lowercase) to its part: given, when, then, and or but. */
export const STEP_NAME = new Map(Object.entries(STEP_WORDS).flatMap(([name, words]) => words.map((w) => [w.toLowerCase(), name])));

/** "Scenario:" before a scenario's name, in those languages. */
export const SCENARIO_WORDS = ['Scenario', 'Scénario', 'Escenario', 'Cenário', 'Szenario', 'Сценарий', 'Сценарій', '场景', '場景', '情景', 'シナリオ', '시나리오'];
